// The dashboard in Debian's Chromium against the real service, a real Hardhat node and real mainnet base fees.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test as base, type Page } from "@playwright/test";
import { DOWN_CHAIN_ID, E2E_KEY, LIVE_CHAIN_ID, startLiveStack, type LiveStack } from "./support/harness.ts";

const SCREENSHOTS = fileURLToPath(new URL("../../test-results/screenshots/", import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });

let stack: LiveStack;

/** Every test fails on a console error or an uncaught exception of the page. */
const test = base.extend<{ problems: string[] }>({
  problems: async ({ page }, use) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console error: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    await use(problems);
    expect(problems, "no console errors").toEqual([]);
  },
});

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  stack = await startLiveStack();
});

test.afterAll(async () => {
  await stack?.stop();
});

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, { headers: { authorization: `Basic ${Buffer.from(`${E2E_KEY}:`).toString("base64")}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/** The points of the chart's line, from its SVG path (`M x,y L x,y ...`). */
async function linePoints(page: Page): Promise<Array<{ x: number; y: number }>> {
  const d = await page.locator('[data-testid="fee-chart"] path.recharts-curve').first().getAttribute("d");
  return [...(d ?? "").matchAll(/[ML]\s*(-?[\d.]+)[ ,](-?[\d.]+)/g)].map((match) => ({ x: Number(match[1]), y: Number(match[2]) }));
}

/** The y of a reference line, by the label drawn on it. */
async function referenceY(page: Page, kind: "p50" | "busy"): Promise<number> {
  const line = page.locator(".recharts-reference-line", { has: page.locator(`[data-testid="ref-label-${kind}"]`) }).locator("line");
  return Number(await line.getAttribute("y1"));
}

async function openDashboard(page: Page, chainId = LIVE_CHAIN_ID): Promise<void> {
  await page.goto(`${stack.dashboardUrl}#chain=${chainId}`);
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of [
    ["1280x800", { width: 1280, height: 800 }],
    ["800x600", { width: 800, height: 600 }],
  ] as const) {
    for (const colorScheme of ["light", "dark"] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await page.screenshot({ path: `${SCREENSHOTS}${name}-${size}-${colorScheme}.png` });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
}

test("the chart has the 500 newest blocks, its two lines at the API's values, and the cards say the same numbers", async ({ page, problems }) => {
  void problems;
  await openDashboard(page);
  const chart = page.getByTestId("fee-chart");
  await expect(chart.locator("path.recharts-curve")).toHaveCount(1);
  const history = await api<string[]>(`/networks/${LIVE_CHAIN_ID}/baseFeeHistory`);
  const { baseFeePercentile } = await api<{ baseFeePercentile: string }>(`/networks/${LIVE_CHAIN_ID}/baseFeePercentile`);
  const { busyThreshold } = await api<{ busyThreshold: string }>(`/networks/${LIVE_CHAIN_ID}/busyThreshold`);
  expect(history).toHaveLength(500);

  const points = await linePoints(page);
  expect(points).toHaveLength(500);
  // Left to right, one point per block.
  for (let i = 1; i < points.length; i++) expect(points[i]!.x).toBeGreaterThan(points[i - 1]!.x);
  // Each line sits at the height of a block whose base fee is exactly its value (nearest rank: it occurred).
  const p50Index = history.indexOf(baseFeePercentile);
  const busyIndex = history.indexOf(busyThreshold);
  expect(p50Index).toBeGreaterThanOrEqual(0);
  expect(busyIndex).toBeGreaterThanOrEqual(0);
  expect(Math.abs((await referenceY(page, "p50")) - points[p50Index]!.y)).toBeLessThan(0.01);
  expect(Math.abs((await referenceY(page, "busy")) - points[busyIndex]!.y)).toBeLessThan(0.01);
  await expect(page.locator('[data-testid="fee-chart"] .recharts-reference-line')).toHaveCount(2);
  await expect(page.getByTestId("ref-label-p50")).toHaveAttribute("data-value", baseFeePercentile);
  await expect(page.getByTestId("ref-label-busy")).toHaveAttribute("data-value", busyThreshold);

  // The numbers, exact on hover, about 4 significant digits on screen.
  await expect(page.getByTestId("base-fee-percentile")).toHaveAttribute("data-value", baseFeePercentile);
  await expect(page.getByTestId("base-fee-percentile")).toHaveAttribute("title", `${baseFeePercentile} Gwei`);
  await expect(page.getByTestId("base-fee-percentile")).toContainText(
    new Intl.NumberFormat("en-US", { maximumSignificantDigits: 4 }).format(Number(baseFeePercentile)),
  );
  await expect(page.getByTestId("busy-threshold")).toHaveAttribute("data-value", busyThreshold);
  await expect(page.getByTestId("newest-base-fee")).toHaveAttribute("data-value", history[499]!);
  const [network] = await api<Array<{ newestBlock: string; busy: boolean; minBaseFee: string; maxBaseFee: string }>>("/networks");
  await expect(page.getByTestId("newest-block")).toHaveAttribute("data-value", network!.newestBlock);
  await expect(page.getByTestId("window-min")).toHaveAttribute("data-value", network!.minBaseFee);
  await expect(page.getByTestId("window-max")).toHaveAttribute("data-value", network!.maxBaseFee);
  await expect(page.getByTestId("congestion")).toHaveAttribute("data-state", network!.busy ? "busy" : "normal");
  await expect(page.getByTestId("congestion")).toContainText(network!.busy ? "Busy" : "Normal");
  await expect(page.getByTestId("rpc-health")).toHaveAttribute("data-state", "ok");
  await shoot(page, "normal");
});

test("the tooltip shows the block number and the exact Gwei value", async ({ page, problems }) => {
  void problems;
  await openDashboard(page);
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  const history = await api<string[]>(`/networks/${LIVE_CHAIN_ID}/baseFeeHistory`);
  const newest = Number((await api<Array<{ newestBlock: string }>>("/networks"))[0]!.newestBlock);
  const points = await linePoints(page);
  const box = (await page.locator('[data-testid="fee-chart"] svg.recharts-surface').first().boundingBox())!;
  const index = 250;
  await page.mouse.move(box.x + points[index]!.x, box.y + points[index]!.y);
  const tooltip = page.getByTestId("chart-tooltip");
  await expect(tooltip).toBeVisible();
  const block = newest - 499 + index;
  await expect(tooltip).toContainText(`Block ${new Intl.NumberFormat("en-US").format(block)}`);
  await expect(tooltip.locator("[data-value]")).toHaveAttribute("data-value", history[index]!);
  await expect(tooltip).toContainText(`${history[index]} Gwei`);
  await page.screenshot({ path: `${SCREENSHOTS}tooltip-1280x800-light.png` });
});

test("a new block appears without a reload, drawn in place (same chart element, still 500 points)", async ({ page, problems }) => {
  void problems;
  await openDashboard(page);
  const curve = page.locator('[data-testid="fee-chart"] path.recharts-curve');
  await expect(curve).toHaveCount(1);
  const before = Number(await page.getByTestId("newest-block").getAttribute("data-value"));
  await page.getByTestId("fee-chart").evaluate((element) => ((element as HTMLElement & { marked?: boolean }).marked = true));
  await page.evaluate(() => {
    (window as Window & { reloaded?: boolean }).reloaded = false;
  });
  const fee = 31_415_926_535n;
  const newest = await stack.mineFee(fee);
  expect(newest).toBe(BigInt(before + 1));
  await expect(page.getByTestId("newest-block")).toHaveAttribute("data-value", String(newest));
  await expect(page.getByTestId("newest-base-fee")).toHaveAttribute("data-value", "31.415926535");
  expect(await page.evaluate(() => (window as Window & { reloaded?: boolean }).reloaded)).toBe(false);
  expect(await page.getByTestId("fee-chart").evaluate((element) => (element as HTMLElement & { marked?: boolean }).marked)).toBe(true);
  const points = await linePoints(page);
  expect(points).toHaveLength(500);
  const history = await api<string[]>(`/networks/${LIVE_CHAIN_ID}/baseFeeHistory`);
  expect(history[499]).toBe("31.415926535");
  // The line is drawn at once, without an animation: its newest point is already at its final place.
  const p50 = await api<{ baseFeePercentile: string }>(`/networks/${LIVE_CHAIN_ID}/baseFeePercentile`);
  await expect(page.getByTestId("ref-label-p50")).toHaveAttribute("data-value", p50.baseFeePercentile);
});

test("a base-fee spike flips the congestion badge to busy", async ({ page, problems }) => {
  void problems;
  await openDashboard(page);
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  // Back to the replay's ordinary fees first, so that the badge starts from normal.
  await stack.mine(3);
  await expect(page.getByTestId("congestion")).toHaveAttribute("data-state", "normal");
  await expect(page.getByTestId("congestion")).toContainText("Normal");
  const newest = await stack.mineFee(900_000_000_000n);
  await expect(page.getByTestId("newest-block")).toHaveAttribute("data-value", String(newest));
  await expect(page.getByTestId("congestion")).toHaveAttribute("data-state", "busy");
  await expect(page.getByTestId("congestion")).toContainText("Busy");
  await expect(page.getByTestId(`chain-${LIVE_CHAIN_ID}`)).toHaveAttribute("data-state", "busy");
  const [network] = await api<Array<{ busy: boolean; currentBaseFee: string }>>("/networks");
  expect(network!.busy).toBe(true);
  await expect(page.getByTestId("next-base-fee")).toHaveAttribute("data-value", network!.currentBaseFee);
  await shoot(page, "busy");
  // Ordinary blocks again: the badge calms down by itself.
  await stack.mine(2);
  await expect(page.getByTestId("congestion")).toHaveAttribute("data-state", "normal");
});

test("a failing RPC shows the degraded state with the last data, then recovers", async ({ page, problems }) => {
  void problems;
  await openDashboard(page);
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  await stack.setRpc("down");
  try {
    await stack.mine(1);
    await expect(page.getByTestId("degraded")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("degraded")).toContainText("failing");
    await expect(page.getByTestId("rpc-health")).toHaveAttribute("data-state", "failing");
    await expect(page.getByTestId(`chain-${LIVE_CHAIN_ID}`)).toHaveAttribute("data-state", "degraded");
    // The last data is still drawn.
    expect(await linePoints(page)).toHaveLength(500);
    await shoot(page, "degraded");
  } finally {
    await stack.setRpc("pass");
  }
  await expect(page.getByTestId("degraded")).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId("rpc-health")).toHaveAttribute("data-state", "ok");
});

test("a chain without data shows the empty state, reached from the switcher by keyboard", async ({ page, problems }) => {
  void problems;
  await openDashboard(page);
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  await page.getByTestId(`chain-${LIVE_CHAIN_ID}`).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId(`chain-${DOWN_CHAIN_ID}`)).toBeFocused();
  await expect(page.getByTestId("chain-view")).toHaveAttribute("data-chain", String(DOWN_CHAIN_ID));
  await expect(page.getByTestId("empty-state")).toBeVisible();
  await expect(page.getByTestId("empty-state")).toContainText("Unreachable chain");
  // Its only endpoint refuses every connection: the page says so rather than "waiting".
  await expect(page.getByTestId("empty-state")).toHaveAttribute("data-state", "degraded", { timeout: 20_000 });
  await expect(page.getByTestId("empty-state")).toContainText("every RPC endpoint is failing");
  await expect(page.getByTestId("rpc-health")).toHaveAttribute("data-state", "failing");
  await expect(page.getByTestId("congestion")).toHaveAttribute("data-state", "unknown");
  await expect(page.getByTestId("congestion")).toContainText("No data");
  await expect(page.getByTestId("fee-chart")).toHaveCount(0);
  await page.keyboard.press("Enter");
  await shoot(page, "empty");
});

test("the token leaves the address bar for sessionStorage; the API panel masks it and its curl lines work", async ({ page, context, problems }) => {
  void problems;
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(stack.dashboardUrl);
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  expect(new URL(page.url()).search).toBe("");
  expect(await page.evaluate(() => sessionStorage.getItem("gasfees.token"))).toBe(stack.token);
  await page.reload();
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);

  await expect(page.getByTestId("api-base-url")).toHaveText(stack.url);
  await expect(page.getByTestId("api-key")).not.toContainText(stack.token);
  await expect(page.getByTestId("curl-busyThreshold")).not.toContainText(stack.token);
  await page.getByRole("button", { name: "Copy the curl line for busyThreshold" }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(`curl -u "${stack.token}:" ${stack.url}/networks/${LIVE_CHAIN_ID}/busyThreshold`);
  // The copied line works as written: the session token is a key of the API.
  const response = await fetch(`${stack.url}/networks/${LIVE_CHAIN_ID}/busyThreshold`, {
    headers: { authorization: `Basic ${Buffer.from(`${stack.token}:`).toString("base64")}` },
  });
  expect(response.status).toBe(200);

  // Without a token the page asks for one instead of failing.
  await page.evaluate(() => sessionStorage.clear());
  await page.goto(stack.url);
  await expect(page.getByTestId("key-form")).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}no-key-1280x800-light.png` });
});
