import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { filesUnder } from "../scripts/filesUnder.mjs";

const importsOf = (file: string) => [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1]!);

test("shared/ imports neither Electron, React nor the other layers (it runs in plain Node)", () => {
  const offending = sourceFiles("shared").flatMap((file) =>
    importsOf(file)
      .filter((specifier) => /^(electron|react|react-dom|recharts)(\/|$)/.test(specifier) || /(^|\/)(electron|renderer)\//.test(specifier))
      .map((specifier) => `${file} imports ${specifier}`),
  );
  assert.deepEqual(offending, []);
});

test("shared/ is typechecked without the DOM lib, so a DOM global there fails `npm run typecheck`", () => {
  const config = JSON.parse(readFileSync("tsconfig.json", "utf8")) as { include: string[]; compilerOptions: { lib: string[]; types: string[] } };
  assert.ok(config.include.includes("shared"));
  assert.deepEqual(config.compilerOptions.types, ["node"]);
  assert.equal(
    config.compilerOptions.lib.some((lib) => /^dom/i.test(lib)),
    false,
  );
});

/** Every TypeScript file under `dir`, tests included. */
function sourceFiles(dir: string): string[] {
  return filesUnder(dir).filter((path) => /\.tsx?$/.test(path));
}
