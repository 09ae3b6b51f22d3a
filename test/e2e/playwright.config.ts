import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";

/** Debian's Chromium (never a downloaded browser); flags that keep it quiet and offline. */
export const CHROMIUM = {
  executablePath: process.env.GASFEES_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
};

// The dashboard against the real headless service and a real Hardhat node. One worker: the machine has 2 cores and
// the tests share one live stack per file.
export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: fileURLToPath(new URL("../../test-results/e2e", import.meta.url)),
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: CHROMIUM,
    viewport: { width: 1280, height: 800 },
    screenshot: "only-on-failure",
    trace: "off",
  },
});
