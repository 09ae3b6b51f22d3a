// No module-level mutable state in shared/: state lives in the objects that own it (a service, a server, a feed), so
// that two of them in one process never share it and a reader can see where every value comes from.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { filesUnder, isSourceFile } from "../scripts/filesUnder.mjs";
import ts from "typescript";

/** Classes whose instances hold no state that changes after construction. */
const IMMUTABLE_CLASSES = new Set(["RegExp", "URL", "TextEncoder", "TextDecoder", "Intl.NumberFormat", "Intl.DateTimeFormat"]);

/** The module-level declarations of `text` that hold mutable state: `let`/`var`, or a `const` made with `new` or Buffer.alloc. */
export function moduleStateOf(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const { flags } = statement.declarationList;
    for (const declaration of statement.declarationList.declarations) {
      const name = declaration.name.getText(source);
      const line = source.getLineAndCharacterOfPosition(declaration.getStart(source)).line + 1;
      const where = `${fileName}:${line} ${name}`;
      if (!(flags & ts.NodeFlags.Const)) {
        found.push(`${where} (a module-level let/var)`);
        continue;
      }
      const init = declaration.initializer;
      if (init === undefined) continue;
      if (ts.isNewExpression(init) && !IMMUTABLE_CLASSES.has(init.expression.getText(source))) found.push(`${where} (new ${init.expression.getText(source)})`);
      if (ts.isCallExpression(init) && /^Buffer\.alloc/.test(init.expression.getText(source))) found.push(`${where} (${init.expression.getText(source)})`);
    }
  }
  return found;
}

test("shared/ holds no module-level mutable state", () => {
  const found = sourceFiles("shared").flatMap((file) => moduleStateOf(file, readFileSync(file, "utf8")));
  assert.deepEqual(found, []);
});

test("the check finds each kind of module-level state, and leaves constants and function-level state alone", () => {
  const found = moduleStateOf(
    "x.ts",
    [
      "let counter = 0;",
      "var legacy;",
      "const cache = new Map();",
      "const agent = new Agent({ keepAlive: true });",
      "const scratch = Buffer.alloc(32);",
      "const LIMIT = 5;",
      "const PATTERN = new RegExp('a');",
      "const NAMES = ['a', 'b'] as const;",
      "function f() { let local = 1; const map = new Map(); return local + map.size; }",
    ].join("\n"),
  );
  assert.deepEqual(found, [
    "x.ts:1 counter (a module-level let/var)",
    "x.ts:2 legacy (a module-level let/var)",
    "x.ts:3 cache (new Map)",
    "x.ts:4 agent (new Agent)",
    "x.ts:5 scratch (Buffer.alloc)",
  ]);
});

function sourceFiles(dir: string): string[] {
  return filesUnder(dir).filter(isSourceFile);
}
