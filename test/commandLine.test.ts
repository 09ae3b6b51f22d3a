// Every command of the README gives its usage on --help and exits 2 on an argument it does not know (serve's and the
// bench's own tests are in test/integration/serveFirstRun.test.ts); npm start without Electron points at the demo, and
// serve --help says where its files are.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

const run = (args: readonly string[], env: NodeJS.ProcessEnv = {}) => {
  const result = spawnSync(process.execPath, args, { encoding: "utf8", env: { ...process.env, NODE_TEST_CONTEXT: "", ...env }, timeout: 60_000 });
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

test("npm start where Electron cannot be had says first how to try gasfees without it: the demo, in a browser", () => {
  // A folder without Electron in ELECTRON_OVERRIDE_DIST_PATH: the binary cannot be had, and nothing is fetched.
  const start = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    encoding: "utf8",
    env: { ...process.env, NODE_TEST_CONTEXT: "", ELECTRON_OVERRIDE_DIST_PATH: join(tmpdir(), "gasfees-no-electron-here") },
    timeout: 60_000,
  });
  assert.equal(start.status, 1, start.stderr);
  const [cannot, blank, first] = start.stderr.split("\n");
  assert.match(cannot!, /^gasfees: cannot start the desktop app: /);
  assert.equal(blank, "");
  assert.match(first!, /npm run serve -- --demo/);
  // The demo comes before any way of getting Electron.
  assert.ok(start.stderr.indexOf("npm run serve -- --demo") < start.stderr.indexOf("ELECTRON_MIRROR"), start.stderr);
  assert.equal(start.stdout, "");
});

test("serve --help says where settings.json and history.sqlite are: the settings folder of this computer, or GASFEES_CONFIG_DIR", () => {
  const home = mkdtempSync(join(tmpdir(), "gasfees-home-"));
  const serveHelp = (env: NodeJS.ProcessEnv) =>
    run(["--import", "tsx", "shared/cli/serve.ts", "--help"], { GASFEES_CONFIG_DIR: "", XDG_CONFIG_HOME: "", HOME: home, ...env });
  // Linux's folder (CI's); elsewhere the platform's own, as the desktop app's (shared/config/configDir.ts).
  const folder =
    process.platform === "darwin"
      ? join(home, "Library", "Application Support", "gasfees")
      : process.platform === "win32"
        ? join(process.env.APPDATA ?? join(home, "AppData", "Roaming"), "gasfees")
        : join(home, ".config", "gasfees");
  const help = serveHelp({});
  assert.equal(help.status, 0, help.stderr);
  assert.ok(help.stdout.includes(`${join(folder, "settings.json")}  `), help.stdout);
  assert.ok(help.stdout.includes(`${join(folder, "history.sqlite")}  `), help.stdout);
  assert.match(help.stdout, /GASFEES_CONFIG_DIR/);
  assert.equal(existsSync(folder), false, "--help creates nothing");
  const moved = serveHelp({ GASFEES_CONFIG_DIR: join(home, "elsewhere") });
  assert.ok(moved.stdout.includes(`${join(home, "elsewhere", "settings.json")}  `), moved.stdout);
  assert.ok(moved.stdout.includes(`${join(home, "elsewhere", "history.sqlite")}  `), moved.stdout);
  if (process.platform === "linux") {
    const xdg = serveHelp({ XDG_CONFIG_HOME: join(home, "xdg") });
    assert.ok(xdg.stdout.includes(`${join(home, "xdg", "gasfees", "settings.json")}  `), xdg.stdout);
  }
});

test("npm run test:electron where Electron cannot be had says that its tests are skipped, and why, once", () => {
  // An empty folder in ELECTRON_OVERRIDE_DIST_PATH: no binary, and none fetched.
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, ["run", "test:electron"], {
    encoding: "utf8",
    env: {
      ...process.env,
      NODE_TEST_CONTEXT: "",
      GASFEES_REQUIRE_ELECTRON: "",
      ELECTRON_OVERRIDE_DIST_PATH: mkdtempSync(join(tmpdir(), "gasfees-no-electron-")),
    },
    shell: process.platform === "win32",
    timeout: 120_000,
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  const output = result.stdout + result.stderr;
  const count = (pattern: RegExp) => [...output.matchAll(new RegExp(pattern.source, "g"))].length;
  assert.equal(count(/tests (will be )?skipped: /), 1, output);
  assert.equal(count(/Where it cannot be fetched:/), 1, output);
  assert.match(output, /Electron end-to-end tests skipped: .*ELECTRON_OVERRIDE_DIST_PATH/);
  assert.match(output, /\d+ skipped/);
});

test("node scripts/runTests.mjs: node:sqlite's ExperimentalWarning, known and harmless, is not printed once per test file", () => {
  // Two test files that open SQLite stores, each in a process of its own; a runner of its own (node:test refuses to
  // run within a test while NODE_TEST_CONTEXT is set at all).
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const result = spawnSync(process.execPath, ["scripts/runTests.mjs", "shared/history/alertFiringStore", "shared/history/historyStore.test"], {
    encoding: "utf8",
    env,
    timeout: 120_000,
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /^ℹ pass [1-9]/m);
  assert.doesNotMatch(result.stdout + result.stderr, /ExperimentalWarning|SQLite is an experimental feature/);
});
