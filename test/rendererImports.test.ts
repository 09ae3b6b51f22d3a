import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every import or re-export statement with a `from` (and bare side-effect imports), with whether it is type-only. */
function importsOf(text: string): Array<{ specifier: string; typeOnly: boolean; statement: string }> {
  const statements = [...text.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']/gms)].map((match) => ({
    specifier: match[4]!,
    typeOnly: match[2] !== undefined || /^\{\s*(type\s+[^,}]+,?\s*)+\}$/.test(match[3]!.trim()),
    statement: match[0],
  }));
  const bare = [...text.matchAll(/^import\s*["']([^"']+)["']/gm)].map((match) => ({ specifier: match[1]!, typeOnly: false, statement: match[0] }));
  return [...statements, ...bare];
}

test("the renderer takes nothing from shared/ but types, and nothing from Node or Electron (it runs in a page)", () => {
  const offending = sourceFiles("renderer").flatMap((file) =>
    importsOf(readFileSync(file, "utf8"))
      .filter(({ specifier, typeOnly }) => (/(^|\/)shared\//.test(specifier) && !typeOnly) || /^(node:|electron$|electron\/)/.test(specifier))
      .map(({ statement }) => `${file}: ${statement}`),
  );
  assert.deepEqual(offending, []);
});

test("the check itself catches a value import from shared/", () => {
  const found = importsOf('import { toGweiString } from "../../shared/fees/gwei.ts";\nimport type { X } from "../../shared/x.ts";\n');
  assert.deepEqual(
    found.map(({ specifier, typeOnly }) => [specifier, typeOnly]),
    [
      ["../../shared/fees/gwei.ts", false],
      ["../../shared/x.ts", true],
    ],
  );
});

test("the renderer's imports of shared/ exist at all (the data client's types), so the first check is not vacuous", () => {
  const client = readFileSync("renderer/src/dataClient.ts", "utf8");
  assert.ok(importsOf(client).some(({ specifier, typeOnly }) => specifier.includes("shared/") && typeOnly));
});
