// Every command of the README gives its usage on --help and exits 2 on an argument it does not know (serve's and the
// bench's own tests are in test/integration/serveFirstRun.test.ts).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";

const run = (args: readonly string[]) => {
  const result = spawnSync(process.execPath, args, { encoding: "utf8", env: { ...process.env, NODE_TEST_CONTEXT: "" }, timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
};

for (const [name, args] of [
  ["npm test", ["scripts/test.mjs"]],
  ["npm start", ["--import", "tsx", "scripts/start.ts"]],
  ["node scripts/runTests.mjs", ["scripts/runTests.mjs"]],
] as const) {
  test(`${name} --help prints its usage and exits 0, doing nothing else`, () => {
    const help = run([...args, "--help"]);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage: /);
    assert.equal(help.stderr.includes("Electron"), false, "nothing was fetched or run");
  });

  test(`${name} with an argument it does not know exits 2 with its usage`, () => {
    const bad = run([...args, "--no-such-option"]);
    assert.equal(bad.status, 2, bad.stdout + bad.stderr);
    assert.match(bad.stderr, /Usage: /);
  });
}
