import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";

/** Debian's Chromium where it is installed (this project's CI machine); elsewhere Playwright's own Chromium. */
const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/**
 * The browser: GASFEES_CHROMIUM when set, else Debian's Chromium when installed, else Playwright's own Chromium
 * (`npx playwright install chromium`, as GitHub's CI runners get it); flags that keep it quiet and offline.
 */
export const CHROMIUM = {
  executablePath: process.env.GASFEES_CHROMIUM || (existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined),
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
