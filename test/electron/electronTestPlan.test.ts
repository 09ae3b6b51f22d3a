// When the Electron end-to-end tests run, skip or fail (plain Node: the decision is a pure function).
import assert from "node:assert/strict";
import { test } from "node:test";
import { describeElectronBinary, electronTestPlan, findElectronBinary } from "../../scripts/electronBinary.ts";

const missing = { found: false, reason: "Electron failed to install correctly" } as const;
const present = { found: true, path: "/x/electron", version: "41.7.1", source: "the electron npm package 41.7.1" } as const;

test("a missing binary skips the Electron tests with the reason and how to get it", () => {
  const plan = electronTestPlan(missing, {});
  assert.equal(plan.kind, "skip");
  assert.match(
    plan.kind === "skip" ? plan.reason : "",
    /Electron binary missing: Electron failed to install correctly\. .*node node_modules\/electron\/install\.js/s,
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
  assert.equal(describeElectronBinary(present), "Electron 41.7.1 at /x/electron, from the electron npm package 41.7.1");
});

test("this machine's answer is one of the two shapes, and says where the binary would come from", () => {
  const binary = findElectronBinary();
  if (binary.found) assert.match(binary.source, /electron npm package \d+\.\d+\.\d+|ELECTRON_OVERRIDE_DIST_PATH/);
  else assert.ok(binary.reason.length > 0);
});
