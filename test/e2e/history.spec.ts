// The dashboard's history views in Debian's Chromium, against the real service following a real Hardhat node that
// replayed 40 hours of real mainnet blocks (3-5 May 2023) with their real timestamps: the service starts with only
// the newest blocks and backfills the rest, as on a first start. The page runs in India's time (UTC+5:30), so that
// the reader's hours are not UTC's.
import { expect, type Locator, type Page } from "@playwright/test";
import { test } from "./support/failOnPageProblems.ts";
import { README_SCREENSHOTS, shootEverySize } from "./support/screenshots.ts";
import type { BaseFeeStatsBucket } from "../../shared/wire/baseFeeStats.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import type { HourlyStats } from "../../shared/wire/hourlyStats.ts";
import { HISTORY_CHAIN_ID, HISTORY_KEY, REPLAYED_BLOCKS, startHistoryStack, type HistoryStack } from "./support/historyHarness.ts";

const TIME_ZONE = "Asia/Kolkata";
/** India's offset from UTC, all year (no daylight saving). */
const ZONE_OFFSET_S = 5.5 * 3600;

let stack: HistoryStack;

test.use({ timezoneId: TIME_ZONE, locale: "en-US" });
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  // Replaying 12,000 blocks into Hardhat takes about 40 s here.
  test.setTimeout(240_000);
  stack = await startHistoryStack();
});

test.afterAll(async () => {
  await stack?.stop();
});

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, { headers: { authorization: `Basic ${Buffer.from(`${HISTORY_KEY}:`).toString("base64")}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

async function network(): Promise<NetworkStatus> {
  const networks = await api<NetworkStatus[]>("/networks");
  return networks.find((entry) => entry.chainId === HISTORY_CHAIN_ID)!;
}

const stats = (query: string) => api<BaseFeeStatsBucket[]>(`/networks/${HISTORY_CHAIN_ID}/baseFeeStats?${query}`);
const hourlyStats = () => api<HourlyStats>(`/networks/${HISTORY_CHAIN_ID}/hourlyStats`);

/** The page's baseFeeStats requests, as their query strings, in order. */
function recordStatsRequests(page: Page): string[] {
  const queries: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith("/baseFeeStats")) queries.push(url.search.slice(1));
  });
  return queries;
}

/** The subpaths of an SVG path, each as its points. */
function subpaths(d: string): Array<Array<{ x: number; y: number }>> {
  return d
    .split("M")
    .filter((part) => part !== "")
    .map((part) => [...part.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map((match) => ({ x: Number(match[1]), y: Number(match[2]) })));
}

/** How many runs of neighbouring buckets with blocks the answer has: each is drawn as one line, a gap between runs. */
function runsOf(buckets: readonly BaseFeeStatsBucket[]): number {
  return buckets.filter((bucket, index) => bucket.blocks > 0 && (index === 0 || buckets[index - 1]!.blocks === 0)).length;
}

/**
 * Points the mouse at bucket `index` of `count` across the chart's plot, three quarters of the way through it: inside
 * it whichever way the page rounds the pointer's pixel, and past its middle, where a page that took the nearest
 * bucket edge instead of the bucket under the pointer would show the next one.
 */
async function hoverBucket(page: Page, chart: Locator, index: number, count: number): Promise<void> {
  const box = (await chart.getByTestId("chart-hover-area").boundingBox())!;
  await page.mouse.move(box.x + ((index + 0.75) / count) * box.width, box.y + box.height / 2);
}

test("while the service backfills, a bar says how much of the chain it holds (younger than the 7 days kept); it goes once the history reaches the chain's start", async ({
  page,
  problems,
}) => {
  void problems;
  await page.goto(`${stack.dashboardUrl}#chain=${HISTORY_CHAIN_ID}`);
  const bar = page.getByTestId("backfill");
  await expect(bar).toBeVisible();
  await expect(bar).toContainText("Fetching older blocks");
  // The chain's 40 hours are well inside the 7 days kept: the words count its blocks, held of all it has (held and to
  // go), and the bar is that share; never "of 7 days".
  // The three are read in one go (one task of the page, so no render falls between): the backfill moves on meanwhile.
  const shown = await bar.evaluate((element) => ({
    progress: Number(element.getAttribute("data-progress")),
    held: element.querySelector('[data-testid="backfill-held"]')?.textContent ?? "",
    valueNow: element.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow"),
  }));
  const { progress } = shown;
  expect(progress).toBeGreaterThanOrEqual(0);
  expect(progress).toBeLessThan(1);
  const [, held, total] = /^([\d,]+) of ([\d,]+) blocks held$/.exec(shown.held) ?? [];
  expect(Number(held?.replaceAll(",", "")) / Number(total?.replaceAll(",", ""))).toBeCloseTo(progress, 6);
  expect(shown.valueNow).toBe(String(Math.floor(progress * 100)));
  await shootEverySize(page, "history-backfill");

  // The replay reaches back to the chain's first block, well inside the 7 days: then the backfill is done.
  await expect(bar).toHaveCount(0, { timeout: 120_000 });
  const status = await network();
  expect(status.history.backfill.running).toBe(false);
  expect(BigInt(status.history.oldestBlock!)).toBeLessThanOrEqual(1n);
  expect(BigInt(status.history.newestBlock!)).toBeGreaterThanOrEqual(BigInt(REPLAYED_BLOCKS));
});

test("the 24 h range draws the service's buckets: one median line, each hovered bucket's exact values, the window's lines named by it", async ({
  page,
  problems,
}) => {
  void problems;
  // Compared with answers asked here: the history must hold still meanwhile (the page asks again while it grows).
  await expect.poll(async () => (await network()).history.backfill.running, { timeout: 120_000 }).toBe(false);
  await page.goto(`${stack.dashboardUrl}#chain=${HISTORY_CHAIN_ID}`);
  await page.getByTestId("range-24h").click();
  await expect(page.getByTestId("range-24h")).toHaveAttribute("aria-checked", "true");
  const chart = page.getByTestId("stats-chart");
  await expect(chart).toHaveAttribute("data-state", "ready");
  await expect(chart).toHaveAttribute("data-range", "24h");
  const buckets = await stats("window=24h&buckets=288");
  await expect(chart).toHaveAttribute("data-buckets", "288");

  const median = subpaths((await chart.getByTestId("band-p50").getAttribute("d"))!);
  expect(median).toHaveLength(runsOf(buckets));
  for (const band of ["band-p10-p90", "band-p25-p75", "band-min-max"]) {
    expect(((await chart.getByTestId(band).getAttribute("d")) ?? "").match(/Z/g)).toHaveLength(runsOf(buckets));
  }

  // Every 29th bucket, the dearest one and the newest: the tooltip has the service's exact median and range.
  const dearest = buckets.reduce((best, bucket, index) => (bucket.blocks > 0 && Number(bucket.p50) > Number(buckets[best]!.p50 ?? -1) ? index : best), 0);
  const sampled = buckets.map((_, index) => index).filter((index) => index % 29 === 0);
  for (const index of [...sampled, dearest, buckets.length - 1]) {
    const bucket = buckets[index]!;
    await hoverBucket(page, chart, index, buckets.length);
    const tooltip = chart.getByTestId("chart-tooltip");
    await expect(tooltip.locator(".chart-tooltip-value")).toHaveAttribute("data-value", bucket.p50!);
    await expect(tooltip).toContainText(`p10–p90 ${bucket.p10} – ${bucket.p90}`);
    await expect(tooltip).toContainText(`min–max ${bucket.min} – ${bucket.max}`);
    await expect(tooltip).toContainText(`to ${Number(bucket.toBlock).toLocaleString("en-US")}`);
  }
  // The dearest bucket is drawn highest on the median line.
  const points = median.flat();
  const top = Math.min(...points.map((point) => point.y));
  const box = (await chart.getByTestId("chart-hover-area").boundingBox())!;
  const plotLeft = Number(await chart.getByTestId("chart-hover-area").getAttribute("x"));
  const dearestX = plotLeft + ((dearest + 0.5) / buckets.length) * box.width;
  // Half a pixel: bucket edges are whole seconds, so buckets differ in length by up to a second (a hundredth of a pixel).
  expect(points.filter((point) => point.y === top).some((point) => Math.abs(point.x - dearestX) < 0.5)).toBe(true);

  // The statistics window's lines, at the service's values, named by their window.
  const status = await network();
  expect(status.statsWindow).toBe("24h");
  await expect(chart.getByTestId("ref-label-busy")).toHaveAttribute("data-value", status.busyThreshold!);
  await expect(chart.getByTestId("ref-label-p50")).toHaveAttribute("data-value", status.baseFeePercentile!);
  await expect(page.getByTestId("legend-busy")).toContainText("p90 over 24 h = busy threshold");
  await expect(page.getByTestId("legend-p50")).toContainText("p50 over 24 h");
  await expect(page.getByTestId("busy-threshold")).toHaveAttribute("data-value", status.busyThreshold!);
  await page.mouse.move(0, 0);
  await shootEverySize(page, "history-24h");
});

test("the 7 d range: the days before the first replayed block are empty, not fees of zero", async ({ page, problems }) => {
  void problems;
  await page.goto(`${stack.dashboardUrl}#chain=${HISTORY_CHAIN_ID}`);
  await page.getByTestId("range-7d").click();
  const chart = page.getByTestId("stats-chart");
  await expect(chart).toHaveAttribute("data-state", "ready");
  await expect(chart).toHaveAttribute("data-range", "7d");
  const buckets = await stats("window=7d&buckets=336");
  const firstHeld = buckets.findIndex((bucket) => bucket.blocks > 0);
  // 40 of the 168 hours are held: most of the week is before the chain's first block.
  expect(firstHeld).toBeGreaterThan(200);

  const area = chart.getByTestId("chart-hover-area");
  const plotLeft = Number(await area.getAttribute("x"));
  const plotWidth = Number(await area.getAttribute("width"));
  const firstHeldX = plotLeft + (firstHeld / buckets.length) * plotWidth;
  const median = subpaths((await chart.getByTestId("band-p50").getAttribute("d"))!).flat();
  expect(Math.min(...median.map((point) => point.x))).toBeGreaterThanOrEqual(firstHeldX - 0.01);
  expect(
    subpaths((await chart.getByTestId("band-min-max").getAttribute("d"))!)
      .flat()
      .every((point) => point.x >= firstHeldX - 0.01),
  ).toBe(true);
  // The span before it is shaded and named; hovering it says so.
  await expect(chart.getByTestId("unheld-span")).toContainText("before the history held");
  await hoverBucket(page, chart, Math.floor(firstHeld / 2), buckets.length);
  await expect(chart.getByTestId("chart-tooltip")).toContainText("no blocks held");
  await page.mouse.move(0, 0);
  await shootEverySize(page, "history-7d");
});

test("switching to a range draws what the page holds without asking again; a new block moves the now marker, and the range on screen follows it", async ({
  page,
  problems,
}) => {
  void problems;
  const queries = recordStatsRequests(page);
  await page.goto(`${stack.dashboardUrl}#chain=${HISTORY_CHAIN_ID}`);
  const chart = page.getByTestId("stats-chart");
  await page.getByTestId("range-24h").click();
  await expect(chart).toHaveAttribute("data-state", "ready");
  await page.getByTestId("range-7d").click();
  await expect(chart).toHaveAttribute("data-range", "7d");
  await expect(chart).toHaveAttribute("data-state", "ready");
  const bandsOf24h = queries.filter((query) => query === "window=24h&buckets=288").length;
  expect(bandsOf24h).toBe(1);
  await page.getByTestId("range-24h").click();
  await expect(chart).toHaveAttribute("data-range", "24h");
  await expect(chart).toHaveAttribute("data-state", "ready");
  expect(queries.filter((query) => query === "window=24h&buckets=288")).toHaveLength(1);

  // The page asks for the range it has not shown yet (1 h) by itself, once settled: then it holds every range.
  await expect.poll(() => queries.filter((query) => query === "window=1h&buckets=60").length).toBe(1);
  await page.getByTestId("range-1h").click();
  await expect(chart).toHaveAttribute("data-range", "1h");
  await expect(chart).toHaveAttribute("data-state", "ready");
  expect(queries.filter((query) => query === "window=1h&buckets=60")).toHaveLength(1);
  await page.getByTestId("range-24h").click();
  await expect(chart).toHaveAttribute("data-state", "ready");

  // The range on screen ends at the newest block, and its caption names it; a new block: it is asked again (once) and
  // follows, the ranges not on screen are not asked again.
  const caption = page.getByTestId("stats-caption");
  await expect(caption).toHaveAttribute("data-to-block", (await network()).newestBlock!);
  const asked = queries.length;
  const newest = await stack.mine(1);
  await expect.poll(async () => (await network()).newestBlock).toBe(String(newest));
  const status = await network();
  await expect(chart.getByTestId("now-dot")).toHaveAttribute("data-value", status.currentBaseFee!);
  await expect(page.getByTestId("newest-block")).toHaveAttribute("data-value", String(newest));
  await expect(caption).toHaveAttribute("data-to-block", String(newest));
  await expect(caption).toContainText(`to ${newest.toLocaleString("en-US")})`);
  expect(queries.slice(asked)).toEqual(["window=24h&buckets=288"]);

  // The block chart is still the newest 500 blocks, one point each.
  await page.getByTestId("range-blocks").click();
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  await expect(page.getByTestId("stats-chart")).toHaveCount(0);
});

test("in the 1 h view the next block's dot stays clear of the statistics lines' plates, at 1280 and 800 px", async ({ page, problems }) => {
  void problems;
  await page.goto(`${stack.dashboardUrl}#chain=${HISTORY_CHAIN_ID}`);
  const chart = page.getByTestId("stats-chart");
  await page.getByTestId("range-1h").click();
  await expect(chart).toHaveAttribute("data-state", "ready");
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 800, height: 600 },
  ]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    // The dot as drawn: its circle and the half of its outline outside it.
    const dot = await chart.getByTestId("now-dot").evaluate((circle) => {
      const box = circle.getBoundingClientRect();
      return box.right + Number.parseFloat(getComputedStyle(circle).strokeWidth) / 2;
    });
    for (const kind of ["p50", "busy"]) {
      const plate = await chart
        .getByTestId(`ref-label-${kind}`)
        .locator("rect")
        .evaluate((rect) => rect.getBoundingClientRect().left);
      // Whatever the dot's height: a gap that the eye sees, so that the dot never touches a plate beside it.
      expect(plate - dot, `the ${kind} plate's gap to the dot at ${viewport.width} px`).toBeGreaterThanOrEqual(3);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("the cheapest hours: every week of hourly summaries held, each cell its hour's median over its weeks in the reader's time, saying how many weeks", async ({
  page,
  problems,
}) => {
  void problems;
  // Once the backfill is done, the summaries stand still (no block is mined meanwhile): the page and this test read the same.
  await expect.poll(async () => (await network()).history.backfill.running, { timeout: 240_000 }).toBe(false);
  const rows = await hourlyStats();
  await page.goto(`${stack.dashboardUrl}#chain=${HISTORY_CHAIN_ID}`);
  const heatmap = page.getByTestId("heatmap");
  await expect(heatmap).toHaveAttribute("data-state", "ready");
  // The chain's past (12 weeks of real mainnet samples, given with its plan) and its own 40 hours of blocks.
  expect(rows.filter((row) => row.sampled).length).toBeGreaterThan(14 * 24);
  expect(rows.filter((row) => !row.sampled).length).toBeGreaterThanOrEqual(38);

  // Computed here independently: per local weekday and hour (India has no daylight saving: a day is a week), the
  // nearest-rank median of the hours' p50.
  const cells = new Map<string, number[]>();
  for (const row of rows) {
    const local = new Date((row.start + ZONE_OFFSET_S) * 1000);
    const key = `${local.getUTCDay()}-${local.getUTCHours()}`;
    cells.set(key, [...(cells.get(key) ?? []), Number(row.p50)]);
  }
  const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length / 2) - 1]!;
  for (let weekday = 0; weekday < 7; weekday++) {
    for (let hour = 0; hour < 24; hour++) {
      const cell = heatmap.getByTestId(`heat-${weekday}-${hour}`);
      const values = cells.get(`${weekday}-${hour}`);
      await expect(cell).toHaveAttribute("data-weeks", String(values?.length ?? 0));
      if (values === undefined) await expect(cell).toHaveClass(/heat-empty/);
      else {
        expect(Number(await cell.getAttribute("data-value")), `cell ${weekday} ${hour}`).toBe(median(values));
        await expect(cell).toHaveAttribute("aria-label", new RegExp(` over ${values.length} weeks?(,|$)`));
      }
    }
  }
  const weeks = [...cells.values()].map((values) => values.length);
  const legend = heatmap.getByTestId("heat-weeks");
  await expect(legend).toHaveAttribute("data-fewest", String(Math.min(...weeks)));
  await expect(legend).toHaveAttribute("data-most", String(Math.max(...weeks)));
  await expect(legend).toContainText(`${Math.min(...weeks)} to ${Math.max(...weeks)} weeks`);
  await expect(heatmap.getByTestId("heatmap-sub")).toContainText("weeks of hourly summaries held");
  await expect(heatmap.locator(".heat-now")).toHaveCount(1);

  // The named stretches are among the cheapest (dearest) tenth of the cells, ranked here independently.
  const ranked = [...cells.entries()].sort((a, b) => median(a[1]) - median(b[1])).map(([key]) => key);
  const share = Math.max(1, Math.round(ranked.length * 0.1));
  const cheapest = new Set(ranked.slice(0, share));
  const dearest = new Set(ranked.slice(-share));
  for (const [kind, allowed] of [
    ["cheapest", cheapest],
    ["dearest", dearest],
  ] as const) {
    const stretches = heatmap.getByTestId(`${kind}-stretch`);
    expect(await stretches.count()).toBeGreaterThan(0);
    for (const stretch of await stretches.all()) {
      const weekday = Number(await stretch.getAttribute("data-weekday"));
      for (let hour = Number(await stretch.getAttribute("data-from-hour")); hour < Number(await stretch.getAttribute("data-to-hour")); hour++) {
        expect(allowed.has(`${weekday}-${hour}`), `${kind}: ${weekday} ${hour}`).toBe(true);
      }
    }
  }
  await expect(heatmap.getByTestId("cheapest-hours")).toContainText("Cheapest:");
  await expect(heatmap.getByTestId("heat-legend")).toBeVisible();
  await heatmap.scrollIntoViewIfNeeded();
  await shootEverySize(page, "history-heatmap", { fullPage: true });
  await shootEverySize(page, "heatmap", { target: heatmap, into: README_SCREENSHOTS });
});

test("every chain at a glance: its tile compares the current base fee with the median of the last 24 h, with their sparkline", async ({ page, problems }) => {
  void problems;
  await page.goto(`${stack.dashboardUrl}#chain=${HISTORY_CHAIN_ID}`);
  const tile = page.getByTestId(`chain-${HISTORY_CHAIN_ID}`);
  const [day] = await stats("window=24h&buckets=1");
  const status = await network();
  await expect(tile.getByTestId(`chain-${HISTORY_CHAIN_ID}-versus`)).toHaveAttribute("data-median", day!.p50!);
  await expect(tile.getByTestId(`chain-${HISTORY_CHAIN_ID}-fee`)).toHaveAttribute("data-value", status.currentBaseFee!);
  const percent = Math.round((Number(status.currentBaseFee) / Number(day!.p50) - 1) * 100);
  await expect(tile.getByTestId(`chain-${HISTORY_CHAIN_ID}-versus`)).toContainText(percent === 0 ? "±0%" : percent > 0 ? `+${percent}%` : `−${-percent}%`);
  await expect(tile.getByTestId("sparkline")).toBeVisible();
  await expect(tile).toHaveAttribute("data-state", status.busy ? "busy" : "normal");
});
