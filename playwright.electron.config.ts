import { defineConfig } from "@playwright/test";
import { findElectronBinary } from "./scripts/electronBinary.ts";

const electron = findElectronBinary();
if (!electron.found) {
  process.stderr.write(`Electron end-to-end tests skipped: Electron binary missing (${electron.reason}); see \`npm start\` for how to get it.\n`);
}

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
