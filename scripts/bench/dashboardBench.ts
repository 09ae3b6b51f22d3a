// The dashboard in Debian's Chromium, served by the real API server with a week of history (real mainnet fees and
// block spacing): how soon the chart is drawn once its data arrives, what one live block costs the page's main thread
// with 500 points and in the 24 h view, and how soon a switch of the chart's range is drawn, each beside a bare SVG
// polyline of the same points measured in the same browser in the same run.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { chromium, type CDPSession } from "@playwright/test";
import { loadMainnetBaseFees } from "../../shared/demo/mainnetBaseFees.ts";
import { toGweiString } from "../../shared/core/fees/gwei.ts";
import { DEFAULT_DASHBOARD_DIR } from "../../shared/http/dashboardFiles.ts";
import { createApiServer } from "../../shared/http/server.ts";
import { loadTimedMainnetBlocks } from "../../shared/demo/timedMainnetBlocks.ts";
import { ApiKeyring } from "../../shared/keys/apiKeyring.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import { CHROMIUM } from "../../test/e2e/playwright.config.ts";
import { scriptedService } from "../../test/support/scriptedFeed.ts";
import type { BenchRow } from "./benchRow.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const CHAIN_ID = 1;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Runs in the page before its scripts: notes when the chart's line first has a path (the chart is drawn).
const WATCH_CURVE = `
  new MutationObserver((_, observer) => {
    const curve = document.querySelector('[data-testid="fee-chart"] path.recharts-curve');
    if (curve && curve.getAttribute("d")) {
      window.__curveAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
`;

/** The baseline: 500 Gwei strings drawn as one SVG polyline, by hand, in the same browser. */
const POLYLINE_PAGE = `<svg id="chart" width="1100" height="420" xmlns="http://www.w3.org/2000/svg"><polyline id="line" fill="none" stroke="blue"/></svg>
<script>
  window.feesGwei = [];
  window.draw = () => {
    const values = window.feesGwei.map(Number);
    let low = Infinity, high = -Infinity;
    for (const value of values) { if (value < low) low = value; if (value > high) high = value; }
    const points = values.map((value, index) => (index * 1100 / (values.length - 1)).toFixed(2) + "," + (420 - (value - low) / (high - low || 1) * 420).toFixed(2)).join(" ");
    document.getElementById("line").setAttribute("points", points);
  };
</script>`;

/** Blocks in the bench's history: a week of 12 s slots. */
const WEEK_BLOCKS = 50_400;

/**
 * A week of blocks ending now, its newest 500 the live window (`liveFeesWei`): before them, the real mainnet fees of
 * the timed data in order; each block after the one before by the real spacing of the same rows (12 s slots, 24 or
 * 36 s after a missed one), the 49 hours of data taken again from the start as often as a week needs.
 */
function weekOfBlocks(newestBlock: bigint, liveFeesWei: readonly bigint[]): { firstBlock: bigint; timestamps: Float64Array; baseFeesWei: BigUint64Array } {
  const rows = loadTimedMainnetBlocks();
  const count = rows.timestamps.length;
  const timestamps = new Float64Array(WEEK_BLOCKS);
  const baseFeesWei = new BigUint64Array(WEEK_BLOCKS);
  let time = Math.floor(Date.now() / 1000) - 5;
  for (let index = WEEK_BLOCKS - 1; index >= 0; index--) {
    const row = index % (count - 1);
    timestamps[index] = time;
    baseFeesWei[index] = rows.baseFeesWei[row]!;
    time -= rows.timestamps[row + 1]! - rows.timestamps[row]!;
  }
  baseFeesWei.set(liveFeesWei, WEEK_BLOCKS - liveFeesWei.length);
  return { firstBlock: newestBlock - BigInt(WEEK_BLOCKS) + 1n, timestamps, baseFeesWei };
}

/**
 * Runs in the page: clicks the range button `testId` and resolves with the milliseconds until the chart matching
 * `drawnSelector` is in the page and the frame that shows it has been painted (a task after the next animation frame).
 */
const SWITCH_AND_TIME = `
  window.__switchRange = (testId, drawnSelector) => new Promise((resolve) => {
    const started = performance.now();
    const painted = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
    document.querySelector('[data-testid="' + testId + '"]').click();
    if (document.querySelector(drawnSelector)) return painted();
    const observer = new MutationObserver(() => {
      if (!document.querySelector(drawnSelector)) return;
      observer.disconnect();
      painted();
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true });
  });
`;

/** What shows that a range is drawn: its chart with a path in it. */
function drawnSelector(range: "blocks" | "1h" | "24h" | "7d"): string {
  return range === "blocks"
    ? '[data-testid="fee-chart"] path.recharts-curve[d^="M"]'
    : `[data-testid="stats-chart"][data-range="${range}"][data-state="ready"] path.band-median[d^="M"]`;
}

/** Main-thread seconds (script, and all tasks) of the page so far, by Chromium's own counters. */
async function busySeconds(cdp: CDPSession): Promise<{ script: number; task: number }> {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const metric = (name: string) => metrics.find((entry) => entry.name === name)?.value ?? 0;
  return { script: metric("ScriptDuration"), task: metric("TaskDuration") };
}

/** What the page's main thread spent during `action` and the `settleMs` after it (nothing else happens meanwhile). */
async function mainThreadCost(cdp: CDPSession, action: () => unknown, settleMs: number): Promise<{ scriptMs: number; taskMs: number }> {
  const before = await busySeconds(cdp);
  await action();
  await sleep(settleMs);
  const after = await busySeconds(cdp);
  return { scriptMs: (after.script - before.script) * 1000, taskMs: (after.task - before.task) * 1000 };
}

export async function runDashboardBench(loads = 5, updates = 20, switchRounds = 5): Promise<BenchRow[]> {
  if (!existsSync(join(DEFAULT_DASHBOARD_DIR, "index.html"))) {
    const built = spawnSync("npx", ["vite", "build"], { stdio: "inherit" });
    if (built.status !== 0) throw new Error("could not build the dashboard (npm run build:renderer)");
  }
  const feesWei = loadMainnetBaseFees().baseFeesWei;
  // The real service, its feed and backfill scripted: the feed brings the newest 500 blocks (the newest with its
  // header), the backfill the rest of the week, each block dated by its header.
  const fees = scriptedService([{ chainId: CHAIN_ID, name: "Ethereum (mainnet fees)", statsWindow: "24h" }]);
  const week = weekOfBlocks(17_180_499n, feesWei.slice(0, 500));
  const anchorsOf = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, offset) => ({ block: week.firstBlock + BigInt(from + offset), timestamp: week.timestamps[from + offset]! }));
  const liveFrom = WEEK_BLOCKS - 500;
  fees.write(CHAIN_ID, week.firstBlock + BigInt(liveFrom), feesWei.slice(0, 500), { anchors: anchorsOf(WEEK_BLOCKS - 1, WEEK_BLOCKS) });
  fees.backfillPage(CHAIN_ID, { firstBlock: week.firstBlock, baseFeesWei: week.baseFeesWei.subarray(0, liveFrom), anchors: anchorsOf(0, liveFrom) });
  const server = createApiServer({
    source: fees.service,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: silentLogger,
    port: 0,
    rateLimit: { requestsPerSecond: 0, burst: 1 },
  });
  const { url } = await server.listen();
  const browser = await chromium.launch(CHROMIUM);
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(WATCH_CURVE);

    // Time to first chart: from the first event with data (the data client's mark) to the line's path in the DOM.
    const firstChartMs: number[] = [];
    for (let load = 0; load < loads; load++) {
      const page = await context.newPage();
      await page.goto(`${url}/?token=${KEY}#chain=${CHAIN_ID}`);
      await page.waitForFunction(() => (globalThis as { __curveAt?: number }).__curveAt !== undefined);
      firstChartMs.push(
        await page.evaluate(
          () => (globalThis as unknown as { __curveAt: number }).__curveAt - performance.getEntriesByName("gasfees:first-data")[0]!.startTime,
        ),
      );
      await page.close();
    }

    // One live block: everything the page's main thread does between the block's write and 300 ms later.
    const page = await context.newPage();
    await page.goto(`${url}/?token=${KEY}#chain=${CHAIN_ID}`);
    await page.waitForFunction(() => (globalThis as { __curveAt?: number }).__curveAt !== undefined);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const updateScriptMs: number[] = [];
    const updateTaskMs: number[] = [];
    let newest = 17_180_499n;
    for (let update = 0; update < updates; update++) {
      newest++;
      const block = newest;
      const cost = await mainThreadCost(cdp, () => fees.write(CHAIN_ID, block, [feesWei[500 + update]!]), 300);
      const shown = await page.getByTestId("newest-block").getAttribute("data-value");
      if (shown !== block.toString()) throw new Error(`the dashboard shows block ${shown}, not ${block}, 300 ms after it was written`);
      updateScriptMs.push(cost.scriptMs);
      updateTaskMs.push(cost.taskMs);
    }
    const idle = await mainThreadCost(cdp, () => undefined, 300);
    await page.close();

    // Range switches: the first to each time range asks the service (336 buckets over a week of blocks at most); each
    // later one draws the answer the page holds. From the click to the painted frame that shows the new chart.
    const ranges = await context.newPage();
    await ranges.addInitScript(SWITCH_AND_TIME);
    await ranges.goto(`${url}/?token=${KEY}#chain=${CHAIN_ID}`);
    await ranges.waitForSelector(drawnSelector("blocks"));
    const switchTo = (range: "blocks" | "1h" | "24h" | "7d") =>
      ranges.evaluate(
        ([testId, selector]) => (globalThis as unknown as { __switchRange: (id: string, drawn: string) => Promise<number> }).__switchRange(testId, selector),
        [`range-${range}`, drawnSelector(range)] as const,
      );
    const firstSwitchMs: number[] = [];
    for (const range of ["1h", "24h", "7d"] as const) firstSwitchMs.push(await switchTo(range));
    const switchMs: number[] = [];
    for (let round = 0; round < switchRounds; round++) {
      for (const range of ["blocks", "1h", "24h", "7d"] as const) switchMs.push(await switchTo(range));
    }
    // One live block in the 24 h view: the bands stay, the next base fee's marker moves.
    await switchTo("24h");
    const rangesCdp = await context.newCDPSession(ranges);
    await rangesCdp.send("Performance.enable");
    const dayScriptMs: number[] = [];
    const dayTaskMs: number[] = [];
    for (let update = 0; update < updates; update++) {
      newest++;
      const block = newest;
      const cost = await mainThreadCost(rangesCdp, () => fees.write(CHAIN_ID, block, [feesWei[500 + updates + update]!]), 300);
      const shown = await ranges.getByTestId("newest-block").getAttribute("data-value");
      if (shown !== block.toString()) throw new Error(`the 24 h view shows block ${shown}, not ${block}, 300 ms after it was written`);
      dayScriptMs.push(cost.scriptMs);
      dayTaskMs.push(cost.taskMs);
    }
    await ranges.close();

    // The baseline: a bare SVG polyline of the same 500 fees, drawn and then shifted by one block, in the same browser.
    const bare = await context.newPage();
    await bare.setContent(POLYLINE_PAGE);
    const window500 = feesWei.slice(0, 500).map(toGweiString);
    const polylineFirstMs: number[] = [];
    for (let load = 0; load < loads; load++) {
      polylineFirstMs.push(
        await bare.evaluate((fees) => {
          const started = performance.now();
          (globalThis as unknown as { feesGwei: string[] }).feesGwei = fees;
          (globalThis as unknown as { draw: () => void }).draw();
          return performance.now() - started;
        }, window500),
      );
    }
    const bareCdp = await context.newCDPSession(bare);
    await bareCdp.send("Performance.enable");
    const polylineScriptMs: number[] = [];
    const polylineTaskMs: number[] = [];
    for (let update = 0; update < updates; update++) {
      const fee = toGweiString(feesWei[500 + update]!);
      // In a task of the page's own, as an event handler would run, so that Chromium counts it as the page's script.
      const cost = await mainThreadCost(
        bareCdp,
        () =>
          bare.evaluate((next) => {
            setTimeout(() => {
              const state = globalThis as unknown as { feesGwei: string[]; draw: () => void };
              state.feesGwei = [...state.feesGwei.slice(1), next];
              state.draw();
            }, 0);
          }, fee),
        300,
      );
      polylineScriptMs.push(cost.scriptMs);
      polylineTaskMs.push(cost.taskMs);
    }
    // The baseline of a switch: the same page's polyline redrawn with 336 other values (a week's buckets), from the
    // call to the painted frame, timed as the dashboard's switches are.
    const weekMedians = Array.from({ length: 336 }, (_, index) => toGweiString(feesWei[(index * 43) % feesWei.length]!));
    const polylineSwitchMs: number[] = [];
    for (let round = 0; round < switchRounds * 4; round++) {
      polylineSwitchMs.push(
        await bare.evaluate(
          (values) =>
            new Promise<number>((resolve) => {
              const started = performance.now();
              const state = globalThis as unknown as { feesGwei: string[]; draw: () => void };
              state.feesGwei = values;
              state.draw();
              const frame = (globalThis as unknown as { requestAnimationFrame: (callback: () => void) => number }).requestAnimationFrame;
              frame(() => setTimeout(() => resolve(performance.now() - started), 0));
            }),
          round % 2 === 0 ? weekMedians : window500,
        ),
      );
    }
    await bare.close();

    return [
      {
        name: "dashboard: first chart after its data arrives (500 blocks, Chromium)",
        value: median(firstChartMs),
        unit: "ms",
        baselineName: "bare SVG polyline",
        baseline: median(polylineFirstMs),
        goal: "< 300 ms",
      },
      {
        name: `dashboard: scripting per live block, 500 points (median of ${updates}; idle page: ${idle.scriptMs.toFixed(2)} ms)`,
        value: median(updateScriptMs),
        unit: "ms",
        baselineName: "bare SVG polyline",
        baseline: median(polylineScriptMs),
        goal: "< 16 ms",
      },
      {
        // The median hides the blocks that also move a reference line (re-reported to recharts' store): the worst.
        name: `dashboard: scripting per live block, slowest of ${updates}`,
        value: Math.max(...updateScriptMs),
        unit: "ms",
        baselineName: "bare SVG polyline",
        baseline: Math.max(...polylineScriptMs),
        goal: "< 16 ms",
      },
      {
        name: "dashboard: main-thread time per live block (script, style, layout, paint)",
        value: median(updateTaskMs),
        unit: "ms",
        baselineName: "bare SVG polyline",
        baseline: median(polylineTaskMs),
        goal: "—",
      },
      {
        name: `dashboard: switching the chart's range, click to painted frame (median of ${switchMs.length}: 500 blocks, 1 h, 24 h, 7 d; answers held)`,
        value: median(switchMs),
        unit: "ms",
        baselineName: "bare SVG polyline, 336 points",
        baseline: median(polylineSwitchMs),
        goal: "< 100 ms",
      },
      {
        name: `dashboard: switching the chart's range, slowest of ${switchMs.length}`,
        value: Math.max(...switchMs),
        unit: "ms",
        baselineName: "bare SVG polyline, 336 points",
        baseline: Math.max(...polylineSwitchMs),
        goal: "< 100 ms",
      },
      {
        // The page asks the service then: the server's bucketing of a week's blocks is in this time.
        name: "dashboard: first switch to each time range, click to painted frame (slowest of 1 h, 24 h, 7 d; asks the service)",
        value: Math.max(...firstSwitchMs),
        unit: "ms",
        baselineName: "bare SVG polyline, 336 points",
        baseline: Math.max(...polylineSwitchMs),
        goal: "—",
      },
      {
        name: `dashboard: scripting per live block in the 24 h view (bands, heatmap, chain tiles; median of ${updates})`,
        value: median(dayScriptMs),
        unit: "ms",
        baselineName: "bare SVG polyline",
        baseline: median(polylineScriptMs),
        goal: "< 16 ms",
      },
      {
        name: `dashboard: main-thread time per live block in the 24 h view (script, style, layout, paint; median of ${updates})`,
        value: median(dayTaskMs),
        unit: "ms",
        baselineName: "bare SVG polyline",
        baseline: median(polylineTaskMs),
        goal: "< 16 ms",
      },
      {
        name: `dashboard: main-thread time per live block in the 24 h view, slowest of ${updates} (script, style, layout, paint)`,
        value: Math.max(...dayTaskMs),
        unit: "ms",
        baselineName: "bare SVG polyline",
        baseline: Math.max(...polylineTaskMs),
        goal: "< 16 ms",
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
