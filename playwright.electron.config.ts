import { defineConfig } from "@playwright/test";
import { describeElectronBinary, electronTestPlan, findElectronBinary } from "./scripts/electronBinary.ts";

// Said once, before any test: which Electron these tests run (and where it came from), or why they skip or fail.
const electron = findElectronBinary();
const plan = electronTestPlan(electron);
if (plan.kind === "run") process.stderr.write(`Electron end-to-end tests: ${describeElectronBinary(electron)}\n`);
else if (plan.kind === "skip") process.stderr.write(`Electron end-to-end tests skipped: ${plan.reason}\n`);
else process.stderr.write(`Electron end-to-end tests FAIL: ${plan.reason}\n`);

// The desktop app's end-to-end tests (`npm run test:electron`): the real Electron binary, one app at a time.
// On Linux without a display, run them under xvfb-run (CI does).
export default defineConfig({
  testDir: "test/electron",
  testMatch: "*.spec.ts",
  workers: 1,
  timeout: 120_000,
  reporter: [["list"]],
  use: { trace: "retain-on-failure" },
});
