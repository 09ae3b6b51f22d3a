// The dashboard in Debian's Chromium, served by the real API server: how soon the chart is drawn once its data
// arrives, and what one live block costs the page's main thread with 500 points, each beside a bare SVG polyline of
// the same 500 points measured in the same browser in the same run.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { chromium, type CDPSession } from "@playwright/test";
import { loadMainnetBaseFees } from "../../shared/demo/mainnetBaseFees.ts";
import { toGweiString } from "../../shared/core/fees/gwei.ts";
import { DEFAULT_DASHBOARD_DIR } from "../../shared/http/dashboardFiles.ts";
import { createApiServer } from "../../shared/http/server.ts";
import { TestFeeSource } from "../../shared/service/testFeeSource.ts";
import { ApiKeyring } from "../../shared/keys/apiKeyring.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import { CHROMIUM } from "../../test/e2e/playwright.config.ts";
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

export async function runDashboardBench(loads = 5, updates = 20): Promise<BenchRow[]> {
  if (!existsSync(join(DEFAULT_DASHBOARD_DIR, "index.html"))) {
    const built = spawnSync("npx", ["vite", "build"], { stdio: "inherit" });
    if (built.status !== 0) throw new Error("could not build the dashboard (npm run build:renderer)");
  }
  const feesWei = loadMainnetBaseFees().baseFeesWei;
  const source = new TestFeeSource([{ chainId: CHAIN_ID, name: "Ethereum (mainnet fees)" }]);
  source.write(CHAIN_ID, 17_180_000n, feesWei.slice(0, 500), Date.now());
  const server = createApiServer({
    source,
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
      const cost = await mainThreadCost(cdp, () => source.write(CHAIN_ID, block, [feesWei[500 + update]!], Date.now()), 300);
      const shown = await page.getByTestId("newest-block").getAttribute("data-value");
      if (shown !== block.toString()) throw new Error(`the dashboard shows block ${shown}, not ${block}, 300 ms after it was written`);
      updateScriptMs.push(cost.scriptMs);
      updateTaskMs.push(cost.taskMs);
    }
    const idle = await mainThreadCost(cdp, () => undefined, 300);
    await page.close();

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
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
