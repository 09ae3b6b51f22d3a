// Where the Electron binary is found, and when the Electron end-to-end tests run, skip or fail (plain Node: the
// decision is a pure function).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { describeElectronBinary, electronTestPlan, findElectronBinary } from "../../scripts/electronBinary.ts";

const missing = { found: false, reason: "Electron failed to install correctly" } as const;
const present = { found: true, path: "/x/electron", version: "45.5.0", source: "the electron npm package 45.5.0" } as const;

test("a missing binary skips the Electron tests with the reason and how to get it", () => {
  const plan = electronTestPlan(missing, {});
  assert.equal(plan.kind, "skip");
  assert.match(
    plan.kind === "skip" ? plan.reason : "",
    /Electron binary missing: Electron failed to install correctly\. `npm start`, `npm run dist` and `npm run test:electron` fetch the Electron binary the first time they run \(npm ci never does\)\..*`npm run serve` runs the same service/s,
  );
});

test("GASFEES_REQUIRE_ELECTRON=1 turns a missing binary into a failure that says why", () => {
  const plan = electronTestPlan(missing, { GASFEES_REQUIRE_ELECTRON: "1" });
  assert.equal(plan.kind, "fail");
  assert.match(plan.kind === "fail" ? plan.reason : "", /Electron binary missing: .*GASFEES_REQUIRE_ELECTRON=1 demands the Electron tests here/s);
  assert.equal(electronTestPlan(missing, { GASFEES_REQUIRE_ELECTRON: "0" }).kind, "skip");
});

test("a binary that is there runs the tests, required or not", () => {
  assert.deepEqual(electronTestPlan(present, {}), { kind: "run", binary: present });
  assert.deepEqual(electronTestPlan(present, { GASFEES_REQUIRE_ELECTRON: "1" }), { kind: "run", binary: present });
  assert.equal(describeElectronBinary(present), "Electron 45.5.0 at /x/electron, from the electron npm package 45.5.0");
});

test("this machine's answer is one of the two shapes, and says where the binary would come from", () => {
  const binary = findElectronBinary();
  if (binary.found) assert.match(binary.source, /electron npm package \d+\.\d+\.\d+|ELECTRON_OVERRIDE_DIST_PATH/);
  else assert.ok(binary.reason.length > 0);
});

// findElectronBinary against a package folder laid out as electron's install.js leaves it (files, not Electron).
function packageFolder(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), "gasfees-electron-package-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "electron", version }));
  return dir;
}

function unpack(dir: string, version: string): string {
  mkdirSync(join(dir, "dist"));
  writeFileSync(join(dir, "dist", "electron"), "");
  writeFileSync(join(dir, "dist", "version"), `v${version}`);
  writeFileSync(join(dir, "path.txt"), "electron");
  return join(dir, "dist", "electron");
}

test("a binary not fetched yet is missing and says so; once unpacked it is found on the next call, with its version", (t) => {
  const dir = packageFolder("45.5.0");
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.deepEqual(findElectronBinary({}, dir), {
    found: false,
    reason: `Electron 45.5.0 has not been fetched into ${join(dir, "dist")} yet (npm ci leaves it out)`,
  });
  const path = unpack(dir, "45.5.0");
  assert.deepEqual(findElectronBinary({}, dir), {
    found: true,
    path,
    version: "45.5.0",
    source: `the electron npm package 45.5.0, fetched into ${join(dir, "dist")}`,
  });
});

test("a binary of another version than the electron package counts as missing", (t) => {
  const dir = packageFolder("45.5.0");
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  unpack(dir, "44.0.0");
  assert.deepEqual(findElectronBinary({}, dir), {
    found: false,
    reason: `${join(dir, "dist")} holds Electron 44.0.0, but the electron npm package is 45.5.0`,
  });
});

test("ELECTRON_OVERRIDE_DIST_PATH is where the binary is looked for, and an empty one says so", (t) => {
  const dir = packageFolder("45.5.0");
  const override = mkdtempSync(join(tmpdir(), "gasfees-electron-override-"));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(override, { recursive: true, force: true });
  });
  const executable = process.platform === "darwin" ? "Electron.app/Contents/MacOS/Electron" : process.platform === "win32" ? "electron.exe" : "electron";
  assert.deepEqual(findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: override }, dir), {
    found: false,
    reason: `ELECTRON_OVERRIDE_DIST_PATH=${override} has no Electron binary (${join(override, executable)} does not exist)`,
  });
  mkdirSync(dirname(join(override, executable)), { recursive: true });
  writeFileSync(join(override, executable), "");
  const found = findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: override }, dir);
  assert.equal(found.found && found.path, join(override, executable));
  assert.match(found.found ? found.source : "", /^ELECTRON_OVERRIDE_DIST_PATH=.* the electron npm package is 45\.5\.0\)$/);
});
