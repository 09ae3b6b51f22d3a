// The dashboard in Debian's Chromium while another process holds the service's history file locked: a plain banner
// says the history is not being saved and how many blocks wait, and goes once the lock is released and they are
// written. The real service, a real Hardhat node, a real second process.
import { expect } from "@playwright/test";
import { test } from "./support/failOnPageProblems.ts";
import { LIVE_CHAIN_ID, startStoreStack, type StoreStack } from "./support/storeHarness.ts";

let stack: StoreStack;

test.beforeAll(async () => {
  stack = await startStoreStack();
});

test.afterAll(async () => {
  await stack?.stop();
});

test("a history file locked by another process shows a plain banner, gone once the blocks kept meanwhile are written", async ({ page, problems }) => {
  void problems;
  await page.goto(`${stack.dashboardUrl}#chain=${LIVE_CHAIN_ID}`);
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  await expect(page.getByTestId("store-failing")).toHaveCount(0);
  await stack.lock();
  try {
    // Blocks keep coming; the lock is told once it has lasted 2 s (gasfees processes on one file take turns).
    for (let i = 0; i < 6; i++) await stack.mine(1);
    const banner = page.getByTestId("store-failing");
    await expect(banner).toBeVisible({ timeout: 20_000 });
    await expect(banner).toHaveAttribute("data-problem", "locked");
    await expect(banner).toContainText("The history is not being saved.");
    await expect(banner).toContainText(/holds the file locked; \d+ blocks? waits? in memory/);
  } finally {
    await stack.release();
  }
  await stack.mine(1);
  await expect(page.getByTestId("store-failing")).toHaveCount(0, { timeout: 20_000 });
});
