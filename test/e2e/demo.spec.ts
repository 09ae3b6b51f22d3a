// Demo mode as a newcomer meets it: `npm run serve -- --demo` (what package.json's serve script runs, in a process of
// its own, with a settings folder of its own), its dashboard in Debian's Chromium. Within the demo's first minute the
// badge must show both Normal and Busy: that is what the app is for.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { serveScriptArguments } from "../../scripts/bench/serveProcess.ts";
import { DEMO_REPLAY } from "../../shared/demo/demoReplayPlan.ts";

/** The demo's first minute, in blocks: the preload's head, then one block per interval. */
const FIRST_MINUTE_BLOCKS = 60_000 / DEMO_REPLAY.blockIntervalMs;
const PRELOAD_HEAD = BigInt(DEMO_REPLAY.preloadBlocks);

interface Seen {
  readonly state: string;
  readonly block: string;
  readonly atMs: number;
}

declare global {
  interface Window {
    congestionSeen?: Seen[];
  }
}

let serve: ChildProcessWithoutNullStreams | undefined;

test.afterEach(async () => {
  if (serve === undefined || serve.exitCode !== null || serve.signalCode !== null) return;
  const exited = new Promise((resolve) => serve!.once("exit", resolve));
  serve.kill("SIGTERM");
  await exited;
});

test("in demo mode the badge shows Normal and Busy within the demo's first minute, on live blocks", async ({ page }) => {
  // Starting may bundle the service first; the demo's minute is counted in its blocks, not in this test's time.
  test.setTimeout(240_000);
  serve = spawn(process.execPath, [...serveScriptArguments(), "--demo", "--port", "0"], {
    env: { ...process.env, GASFEES_CONFIG_DIR: mkdtempSync(join(tmpdir(), "gasfees-demo-e2e-")), GASFEES_PORT: "" },
  });
  let stdout = "";
  let stderr = "";
  serve.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  serve.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  await expect
    .poll(() => /^gasfees listening on http:\/\/127\.0\.0\.1:\d+\n$/.test(stdout), { timeout: 180_000, message: `listening (stderr: ${stderr})` })
    .toBe(true);
  const dashboardUrl = /^dashboard: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32})$/m.exec(stderr)?.[1];
  expect(dashboardUrl, `the dashboard's address on stderr: ${stderr}`).toBeDefined();

  // Every change of the badge, with the newest block shown at the time, as the page renders it.
  await page.addInitScript(() => {
    const seen: Seen[] = [];
    window.congestionSeen = seen;
    new MutationObserver(() => {
      const state = document.querySelector('[data-testid="congestion"]')?.getAttribute("data-state");
      const block = document.querySelector('[data-testid="newest-block"]')?.getAttribute("data-value");
      const last = seen[seen.length - 1];
      if (state && block && (last === undefined || last.state !== state || last.block !== block)) seen.push({ state, block, atMs: Date.now() });
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await page.goto(dashboardUrl!);
  await expect(page.getByTestId("fee-chart").locator("path.recharts-curve").first()).toBeVisible();

  const firstMinuteEnds = PRELOAD_HEAD + BigInt(FIRST_MINUTE_BLOCKS);
  await expect
    .poll(
      async () => {
        const seen = await page.evaluate(() => window.congestionSeen ?? []);
        return (
          seen.some((entry) => BigInt(entry.block) > firstMinuteEnds) ||
          (["normal", "busy"] as const).every((state) => seen.some((entry) => entry.state === state))
        );
      },
      { timeout: 150_000, message: "both states, or the end of the demo's first minute" },
    )
    .toBe(true);
  const seen = await page.evaluate(() => window.congestionSeen ?? []);
  const inFirstMinute = seen.filter((entry) => BigInt(entry.block) <= firstMinuteEnds);
  const timeline = seen.map((entry) => `${entry.block}:${entry.state}`).join(" ");
  expect(
    inFirstMinute.some((entry) => entry.state === "normal"),
    `Normal within blocks ${PRELOAD_HEAD}-${firstMinuteEnds}: ${timeline}`,
  ).toBe(true);
  expect(
    inFirstMinute.some((entry) => entry.state === "busy"),
    `Busy within blocks ${PRELOAD_HEAD}-${firstMinuteEnds}: ${timeline}`,
  ).toBe(true);
  // Live blocks: the page showed more than one newest block, in order.
  const blocks = [...new Set(seen.map((entry) => BigInt(entry.block)))];
  expect(blocks.length, timeline).toBeGreaterThan(1);
  expect(
    blocks.every((block, i) => i === 0 || block > blocks[i - 1]!),
    timeline,
  ).toBe(true);
  const busyAt = seen.find((entry) => entry.state === "busy")!;
  test
    .info()
    .annotations.push({ type: "first Busy", description: `block ${busyAt.block}, ${(busyAt.atMs - seen[0]!.atMs) / 1000} s after the page's first data` });
  expect(stdout, "stdout carries only the listening line").toMatch(/^gasfees listening on \S+\n$/);
});
