// Demo mode as a newcomer meets it: `npm run serve -- --demo` (what package.json's serve script runs, in a process of
// its own, with a settings folder of its own), its dashboard in Debian's Chromium. Within the demo's first minute the
// badge must show both Normal and Busy, on the default 24-hour statistics window: that is what the app is for; the
// 24 h view and the cheapest hours must hold the demo's two days of real blocks, say how much of a span is held, and
// name the blocks up to the newest. The README's screenshots of the demo's first minute are taken here.
import { expect, type Locator, test } from "@playwright/test";
import { DEMO_CHAIN_NAME } from "../../shared/cli/demoChain.ts";
import { DEMO_REPLAY } from "../../shared/demo/demoReplayPlan.ts";
import { loadTimedMainnetBlocks } from "../../shared/demo/timedMainnetBlocks.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { demoServeFixture } from "./support/demoServe.ts";
import { README_SCREENSHOTS, shootEverySize } from "./support/screenshots.ts";

/** The demo's first minute, in blocks: the history's head, then one block per interval. */
const FIRST_MINUTE_BLOCKS = 60_000 / DEMO_REPLAY.blockIntervalMs;
/** The history's newest block: the genesis is its first, one block per row of the timed data (0 to 14,650). */
const PRELOAD_HEAD = BigInt(loadTimedMainnetBlocks().baseFeesWei.length - 1);
const DEMO_CHAIN_ID = 31337;

interface Seen {
  readonly state: string;
  readonly block: string;
  readonly atMs: number;
}

/** What the page said while the backfill ran: its bar's words, and the tile's median beside the card's p50. */
interface BackfillSeen {
  readonly held: string[];
  readonly medians: Array<{ tile: string; card: string; tileWords: string; cardWords: string }>;
}

declare global {
  interface Window {
    congestionSeen?: Seen[];
    backfillSeen?: BackfillSeen;
  }
}

const demo = demoServeFixture();

/** Whether the chart's median is drawn as one unbroken line starting in its first bucket. */
async function wholeLineFromFirstBucket(chart: Locator): Promise<boolean> {
  const area = chart.getByTestId("chart-hover-area");
  const plotLeft = Number(await area.getAttribute("x"));
  const bucketWidth = Number(await area.getAttribute("width")) / Number(await chart.getAttribute("data-buckets"));
  const median = (await chart.getByTestId("band-p50").getAttribute("d")) ?? "";
  const runs = median.split("M").filter((part) => part !== "");
  const xs = [...median.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map((match) => Number(match[1]));
  return runs.length === 1 && Math.min(...xs) <= plotLeft + bucketWidth;
}

test("in demo mode the badge shows Normal and Busy within the demo's first minute, on live blocks", async ({ page }) => {
  // Starting may bundle the service first; the demo's minute is counted in its blocks, not in this test's time.
  test.setTimeout(240_000);
  const { output, dashboardUrl } = await demo.start();

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
  await page.goto(dashboardUrl);
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
  expect(output().stdout, "stdout carries only the listening line").toMatch(/^gasfees listening on \S+\n$/);

  // On the default window, under a plain name: the page's block numbers are the demo chain's own, and the mainnet
  // blocks it replays are said once, in the log.
  await expect(page.locator("#chain-title")).toHaveText(`${DEMO_CHAIN_NAME} chain ${DEMO_CHAIN_ID}`);
  await expect(page.getByTestId("busy-threshold").locator("xpath=..")).toContainText("p90 over 24 h");
  expect(output().stderr).toMatch(/from block 14,651 on, one block every 2 s replays mainnet 17,191,292 to 17,191,351/);

  // The README's screenshots: the first minute, the history held, Busy beside a red "vs 24 h median".
  await expect(page.getByTestId("backfill")).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId("congestion")).toHaveAttribute("data-state", "busy", { timeout: 60_000 });
  // The tile's answers cover the day (its sparkline starts at the left edge), not the feed's first 500 blocks.
  await expect(page.getByTestId(`chain-${DEMO_CHAIN_ID}-versus`)).toContainText("vs 24 h median");
  const sparklineStartX = async () =>
    Number(/^M\s*(-?[\d.]+)/.exec((await page.getByTestId("sparkline").locator(".sparkline-median").getAttribute("d")) ?? "")?.[1]);
  await expect.poll(sparklineStartX).toBeLessThan(4);
  // The docs' pictures show the page, not a toast that fires while they are taken (the built-in busy alert's, which
  // the demo sets off within its first minute): hidden for the pictures only.
  await page.evaluate(() => {
    const hide = () => document.querySelectorAll<HTMLElement>(".alert-toasts").forEach((toasts) => (toasts.style.display = "none"));
    hide();
    new MutationObserver(hide).observe(document.body, { subtree: true, childList: true });
  });
  await shootEverySize(page, "demo", { into: README_SCREENSHOTS });
  // The demo's blob fees (its node's thin blob layer): the blob view is there, with its own badge, floor and blob use.
  const blobView = page.getByTestId("blob-view");
  await expect(blobView.getByTestId("blob-congestion")).toHaveAttribute("data-state", /^(busy|normal)$/);
  await expect(blobView.getByTestId("blob-fee-chart").locator("path.floor-line")).toHaveCount(1);
  await expect(blobView.getByTestId("blob-use")).toHaveAttribute("data-blocks", "500");
  await shootEverySize(page, "demo-blob", { target: blobView, into: README_SCREENSHOTS });
});

test("in demo mode the 24 h view and the cheapest hours hold two days of real blocks once the backfill is done", async ({ page }) => {
  // How soon the backfill is done (within the demo's first minute) is a benchmark's figure: npm run bench -- wrk.
  test.setTimeout(600_000);
  const { dashboardUrl } = await demo.start();
  // Every word of the backfill's bar, and every tile median beside the card's p50, as the page renders them.
  await page.addInitScript(() => {
    const seen: BackfillSeen = { held: [], medians: [] };
    window.backfillSeen = seen;
    new MutationObserver(() => {
      const held = document.querySelector('[data-testid="backfill-held"]')?.textContent;
      if (held && seen.held[seen.held.length - 1] !== held) seen.held.push(held);
      const versus = document.querySelector('[data-testid="chain-31337-versus"]');
      const card = document.querySelector('[data-testid="base-fee-percentile"]');
      const tile = versus?.getAttribute("data-median");
      const p50 = card?.getAttribute("data-value");
      if (tile && p50) {
        const pair = { tile, card: p50, tileWords: versus?.textContent ?? "", cardWords: card?.parentElement?.querySelector(".card-sub")?.textContent ?? "" };
        const last = seen.medians[seen.medians.length - 1];
        if (last === undefined || JSON.stringify(last) !== JSON.stringify(pair)) seen.medians.push(pair);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  // A newcomer opens the page at once, while the history still arrives: the views must fill in as it does.
  await page.goto(dashboardUrl);
  await page.getByTestId("range-24h").click();
  const url = new URL(dashboardUrl);
  const token = url.searchParams.get("token")!;
  const demoStatus = async (): Promise<NetworkStatus | undefined> => {
    const response = await fetch(`${url.origin}/v3/${token}/networks`);
    return response.ok ? ((await response.json()) as NetworkStatus[]).find((network) => network.chainId === DEMO_CHAIN_ID) : undefined;
  };
  // The service backfills the demo's history from the node as from any chain, at its usual pace.
  let held: NetworkStatus | undefined;
  await expect
    .poll(
      async () => {
        held = await demoStatus();
        return held?.history.oldestBlock === "0" && !held.history.backfill.running;
      },
      { timeout: 300_000, message: "the history backfilled back to the demo chain's genesis" },
    )
    .toBe(true);
  expect(held!.history.blocks).toBeGreaterThan(Number(PRELOAD_HEAD));
  expect(held!.history.newestTime! - held!.history.oldestTime!).toBeGreaterThan(49 * 3600);

  // The page, open since the start, follows within seconds (it asks again when older blocks arrive; its answers'
  // own ages would have it wait 150 s for the 24 h view and 300 s for the heatmap).
  const chart = page.getByTestId("stats-chart");
  await expect(chart).toHaveAttribute("data-state", "ready");
  // Given up after two minutes: still short of the 150 s that its answers' ages would have it wait.
  const followsWithinMs = 120_000;
  // The median drawn as one unbroken line from the day's first bucket on: every bucket of the 24 h holds blocks.
  await expect
    .poll(async () => (await wholeLineFromFirstBucket(chart)) && (await chart.getByTestId("unheld-span").count()) === 0, {
      timeout: followsWithinMs,
      message: "one unbroken median line over the whole 24 h, no span left unheld",
    })
    .toBe(true);
  const heatmap = page.getByTestId("heatmap");
  await expect(heatmap).toHaveAttribute("data-state", "ready");
  // 49.4 hours of blocks and 12 weeks of past fill every hour of the week.
  await expect.poll(() => heatmap.locator(".heat-cell:not(.heat-empty)").count(), { timeout: followsWithinMs }).toBe(168);

  // In money too, from the first minute: the feed's past rounds, read back, price every bucket of the day.
  await page.getByTestId("shown-action").first().selectOption("erc20-transfer");
  await expect(page.getByTestId("stats-caption")).toContainText("What one ERC-20 transfer");
  const caption = page.getByTestId("stats-caption");
  await expect
    .poll(async () => (await wholeLineFromFirstBucket(chart)) && !(await caption.textContent())?.includes("before the oldest price held"), {
      timeout: followsWithinMs,
      message: "one unbroken line of costs over the whole 24 h, no bucket before the oldest price",
    })
    .toBe(true);
  await page.getByTestId("shown-action").first().selectOption({ index: 0 });

  // While the backfill ran, its bar measured the demo's two days (its chain holds no more), not a week; and the tile
  // compared with the card's p50, over the window the card names: one median on the page.
  const backfillSeen = await page.evaluate(() => window.backfillSeen!);
  expect(backfillSeen.held.length, "the backfill's bar, shown while the history arrived").toBeGreaterThan(0);
  for (const held of backfillSeen.held) expect(held).toMatch(/^[\d,]+ of 1[45],\d{3} blocks held$/);
  expect(backfillSeen.medians.length).toBeGreaterThan(0);
  for (const pair of backfillSeen.medians) {
    expect(pair.tile, JSON.stringify(pair)).toBe(pair.card);
    const window = /^p50 over (?:the (.+) held|(.+))$/.exec(pair.cardWords);
    expect(pair.tileWords, JSON.stringify(pair)).toContain(`vs ${window?.[1] ?? window?.[2]}`);
  }

  // A span is named by what is held of it: the whole day, two days of the week.
  await expect(page.getByTestId(`chain-${DEMO_CHAIN_ID}-versus`)).toContainText("vs 24 h median");
  await expect(page.getByTestId("stats-caption")).toContainText("over the last 24 h,");
  // The cheapest hours: the demo's weeks of past (mainnet samples) and its own two days, every hour of the week.
  await expect(heatmap.getByTestId("heatmap-sub")).toContainText("weeks of hourly summaries held");
  await expect(heatmap.locator(".heat-cell:not(.heat-empty)")).toHaveCount(168);
  expect(Number(await heatmap.getByTestId("heat-weeks").getAttribute("data-most"))).toBeGreaterThanOrEqual(12);
  await page.getByTestId("range-7d").click();
  await expect(page.getByTestId("stats-caption")).toContainText("over the 2 days held of the last 7 days,");

  // The caption of the range on screen names its blocks up to the newest, block after block.
  await page.getByTestId("range-1h").click();
  const newestShown = async () => BigInt((await page.getByTestId("newest-block").getAttribute("data-value")) ?? "0");
  for (let block = 0; block < 3; block++) {
    const newest = await newestShown();
    await expect
      .poll(async () => BigInt((await caption.getAttribute("data-to-block")) || "0") >= newest, { message: `the caption reaches block ${newest}` })
      .toBe(true);
    await expect.poll(newestShown).toBeGreaterThan(newest);
  }
  const toBlock = Number(await caption.getAttribute("data-to-block"));
  await expect(caption).toContainText(`to ${toBlock.toLocaleString("en-US")})`);
});
