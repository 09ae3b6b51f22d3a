// The dashboard in Debian's Chromium against the real service, a real Hardhat node and real mainnet base fees.
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { expect, type Page } from "@playwright/test";
import { test } from "./support/failOnPageProblems.ts";
import { SCREENSHOTS, shootEverySize } from "./support/screenshots.ts";
import { DOWN_CHAIN_ID, E2E_KEY, LIVE_CHAIN_ID, startLiveStack, type LiveStack } from "./support/harness.ts";

let stack: LiveStack;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  stack = await startLiveStack();
});

test.afterAll(async () => {
  await stack?.stop();
});

/**
 * Takes out of `problems` the console errors Chromium itself writes for requests that a test makes fail on purpose
 * (a stopped service, a refused token), each named by its text and URL; anything else stays and fails the test.
 */
function forgive(problems: string[], expected: RegExp): void {
  const kept = problems.filter((problem) => !expected.test(problem));
  problems.splice(0, problems.length, ...kept);
}

/** The page's requests to the service (not its own files), as `METHOD path` with any key in the path hidden. */
/** The page's requests to the service (not its files), key masked; the history's queries with their query strings. */
function recordRequests(page: Page): string[] {
  const requests: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/" || url.pathname.startsWith("/assets/")) return;
    const path = url.pathname.replace(/^\/v3\/[^/]+/, "/v3/KEY");
    requests.push(`${request.method()} ${path}${path.endsWith("/baseFeeStats") ? url.search : ""}`);
  });
  return requests;
}

/** The computed colour of `property` of the first element matching `selector`. */
function colourOf(page: Page, selector: string, property: "color" | "backgroundColor" | "stroke"): Promise<string> {
  return page
    .locator(selector)
    .first()
    .evaluate((element, name) => getComputedStyle(element)[name], property);
}

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
  // One median on the page: the tile compares with the card's p50, over the window the card names.
  await expect(page.getByTestId(`chain-${LIVE_CHAIN_ID}-versus`)).toHaveAttribute("data-median", baseFeePercentile);
  await expect(page.getByTestId("base-fee-percentile").locator("xpath=..")).toContainText("p50 over 500 blocks");
  await expect(page.getByTestId("versus-of")).toHaveText("vs 500-block median");
  // The top bar says "Live" once, beside the name.
  expect(((await page.locator(".topbar").textContent()) ?? "").match(/live/gi)).toHaveLength(1);
  await shootEverySize(page, "normal");
});

test("the cards' captions are whole at 1280 and 800 px: wrapped where narrow, never cut", async ({ page, problems }) => {
  void problems;
  await openDashboard(page);
  await expect(page.getByTestId("base-fee-percentile")).not.toHaveAttribute("data-value", "");
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: width === 800 ? 600 : 800 });
    const captions = await page.locator(".card-label, .card-sub").evaluateAll((elements) =>
      elements.map((element) => ({
        text: element.textContent,
        // Anything not shown: wider or taller than its box (cut, or replaced by an ellipsis).
        cut: element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight,
      })),
    );
    expect(captions.length, "the cards' labels and captions").toBeGreaterThanOrEqual(10);
    expect(
      captions.filter((caption) => caption.cut),
      `cut at ${width} px`,
    ).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
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
  await shootEverySize(page, "busy");
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
    await shootEverySize(page, "degraded");
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
  await expect(page.getByTestId("empty-state")).toHaveAttribute("data-state", "unreachable", { timeout: 20_000 });
  await expect(page.getByTestId("empty-state")).toContainText("every RPC endpoint is failing");
  await expect(page.getByTestId("rpc-health")).toHaveAttribute("data-state", "failing");
  await expect(page.getByTestId("congestion")).toHaveAttribute("data-state", "unknown");
  await expect(page.getByTestId("congestion")).toContainText("No data");
  await expect(page.getByTestId("fee-chart")).toHaveCount(0);
  await page.keyboard.press("Enter");
  await shootEverySize(page, "empty");
});

test("the token leaves the address bar for sessionStorage; the API panel shows the user's key, masked, and its curl lines work", async ({
  page,
  context,
  problems,
}) => {
  void problems;
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(stack.dashboardUrl);
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  expect(new URL(page.url()).search).toBe("");
  expect(await page.evaluate(() => sessionStorage.getItem("gasfees.token"))).toBe(stack.token);
  await page.reload();
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);

  await expect(page.getByTestId("api-base-url")).toHaveText(stack.url);
  // The user's key (the service's first), masked on screen; the dashboard's token appears nowhere in the panel.
  await expect(page.getByTestId("api-key")).toHaveText(`${E2E_KEY.slice(0, 4)}…${E2E_KEY.slice(-4)}`);
  await expect(page.getByTestId("api-key")).not.toContainText(stack.token);
  await expect(page.getByTestId("api-panel")).not.toContainText(stack.token);
  await expect(page.getByTestId("api-panel")).not.toContainText(E2E_KEY);
  await expect(page.getByTestId("curl-busyThreshold")).not.toContainText(stack.token);
  await page.getByRole("button", { name: "Copy the curl line for busyThreshold" }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(`curl -u "${E2E_KEY}:" ${stack.url}/networks/${LIVE_CHAIN_ID}/busyThreshold`);
  await page.getByRole("button", { name: "Copy the API key" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(E2E_KEY);
  // The copied line works as written.
  const response = await fetch(`${stack.url}/networks/${LIVE_CHAIN_ID}/busyThreshold`, {
    headers: { authorization: `Basic ${Buffer.from(`${E2E_KEY}:`).toString("base64")}` },
  });
  expect(response.status).toBe(200);

  // Without a token the page asks for one instead of failing.
  await page.evaluate(() => sessionStorage.clear());
  await page.goto(stack.url);
  await expect(page.getByTestId("key-form")).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}no-key-1280x800-light.png` });
});

test("any API key works as ?token=: the page runs on it, and its API panel shows that key", async ({ page, context, problems }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  // No request of the page fails: a key given as the token is not the dashboard's token, and nothing asks as if it were.
  const failed: string[] = [];
  page.on("requestfailed", (request) => failed.push(`${request.url()}: ${request.failure()?.errorText ?? "failed"}`));
  page.on("response", (response) => {
    if (response.status() >= 400) failed.push(`${response.url()}: ${response.status()}`);
  });
  await page.goto(`${stack.url}/?token=${E2E_KEY}#chain=${LIVE_CHAIN_ID}`);
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  await expect(page.getByTestId("link-state")).toHaveAttribute("data-state", "live");
  expect(new URL(page.url()).search).toBe("");
  expect(await page.evaluate(() => sessionStorage.getItem("gasfees.token"))).toBe(E2E_KEY);
  const [network] = await api<Array<{ newestBlock: string }>>("/networks");
  await expect(page.getByTestId("newest-block")).toHaveAttribute("data-value", network!.newestBlock);
  // GET /dashboard/credentials says the page was opened with a user key: the panel uses the key itself.
  await expect(page.getByTestId("api-key-row")).toHaveAttribute("data-state", "key");
  await expect(page.getByTestId("api-key")).toHaveText(`${E2E_KEY.slice(0, 4)}…${E2E_KEY.slice(-4)}`);
  await expect(page.getByTestId("api-panel")).toContainText("opened with");
  await page.getByRole("button", { name: "Copy the curl line for baseFeeHistory" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`curl -u "${E2E_KEY}:" ${stack.url}/networks/${LIVE_CHAIN_ID}/baseFeeHistory`);
  expect(failed, "no failing request (the console's 401 of /dashboard/credentials was one)").toEqual([]);
  expect(problems, "no console error").toEqual([]);
});

test("one event stream for every chain: no polling, and switching chains opens nothing new", async ({ page, problems }) => {
  void problems;
  const requests = recordRequests(page);
  // What the cheapest hours ask their summaries again for: a new hour of blocks, or the history reaching another hour back.
  const hoursAsked = async () => {
    const networks = await api<NetworkStatus[]>("/networks");
    const { history } = networks.find((chain) => chain.chainId === LIVE_CHAIN_ID)!;
    return [history.newestTime, history.oldestTime].map((time) => (time === null ? null : Math.floor(time / 3_600)));
  };
  const hoursBefore = await hoursAsked();
  await openDashboard(page);
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  // Both chains' states come from the stream.
  await expect(page.getByTestId(`chain-${LIVE_CHAIN_ID}`)).toHaveAttribute("data-state", /^(normal|busy)$/);
  await expect(page.getByTestId(`chain-${DOWN_CHAIN_ID}`)).toHaveAttribute("data-state", "unreachable", { timeout: 20_000 });
  // New blocks over several seconds (the old page polled GET /networks every 2 s), and a switch of chain and back.
  for (let block = 0; block < 3; block++) {
    const newest = await stack.mine(1);
    await expect(page.getByTestId("newest-block")).toHaveAttribute("data-value", String(newest));
    await page.waitForTimeout(1_500);
  }
  await page.getByTestId(`chain-${DOWN_CHAIN_ID}`).click();
  await expect(page.getByTestId("chain-view")).toHaveAttribute("data-chain", String(DOWN_CHAIN_ID));
  await page.getByTestId(`chain-${LIVE_CHAIN_ID}`).click();
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  // The live state: one stream, no polling. The history views (tiles, ranges) ask baseFeeStats once per query: their
  // answers are cached until half a bucket old, never asked again per block or per switch. The alert rules' state is
  // asked once as the stream opens (again per block only while the user has rules of their own: none here).
  const history = requests.filter((request) => request.includes("/baseFeeStats"));
  // The cheapest hours ask the chain's hourly summaries once, and again only for a new hour (the test may straddle
  // one), never per block or per switch of chain (before they were remembered, the switch back asked again).
  const hoursAfter = await hoursAsked();
  const hours = requests.filter((request) => request.includes("/hourlyStats"));
  const hoursChanged = hoursAfter.filter((hour, index) => hour !== hoursBefore[index]).length;
  expect(hours.length, hours.join("\n")).toBeGreaterThan(0);
  expect(hours.length, `${hours.join("\n")}\nhours changed: ${hoursChanged}`).toBeLessThanOrEqual(1 + hoursChanged);
  expect(new Set(hours), hours.join("\n")).toEqual(new Set([`GET /networks/${LIVE_CHAIN_ID}/hourlyStats`]));
  // What each action costs now is asked again with a new block of the chain shown (at most every 3 s), never per switch:
  // the first answer and at most one per block mined.
  const costs = requests.filter((request) => request.includes("/costs"));
  expect(costs.length, costs.join("\n")).toBeGreaterThan(0);
  expect(costs.length, costs.join("\n")).toBeLessThanOrEqual(1 + 3);
  expect(
    costs.every((request) => request === `GET /networks/${LIVE_CHAIN_ID}/costs`),
    costs.join("\n"),
  ).toBe(true);
  expect(requests.filter((request) => !history.includes(request) && !costs.includes(request) && !hours.includes(request)).sort()).toEqual([
    "GET /alerts",
    "GET /dashboard/credentials",
    "GET /networks",
    "GET /v3/KEY/events",
  ]);
  expect(history.length).toBeGreaterThan(0);
  expect(new Set(history).size, history.join("\n")).toBe(history.length);
});

test("the service stopped: every live indicator turns grey with the last contact's time; restarted, the page recovers by itself", async ({
  page,
  problems,
}) => {
  await openDashboard(page);
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  await expect(page.getByTestId("link-state")).toHaveAttribute("data-state", "live");
  await expect(page.getByTestId("rpc-health")).toHaveAttribute("data-state", "ok");
  await expect(page.getByTestId("congestion")).toHaveAttribute("data-state", /^(normal|busy)$/);
  await page.evaluate(() => {
    (window as Window & { notReloaded?: boolean }).notReloaded = true;
  });

  const stoppedAt = Date.now();
  await stack.stopService();
  try {
    // The page learns it from the stream's socket closing (the issue asked for 5 s); given up after 30 s.
    await expect(page.getByTestId("link-state")).toHaveAttribute("data-state", "unreachable", { timeout: 30_000 });
    const seenAt = Date.now();
    await expect(page.getByTestId("link-state")).toContainText("Service unreachable");
    await expect(page.getByTestId("link-state")).toContainText("last contact");
    await expect(page.getByTestId("congestion")).toHaveAttribute("data-state", "unknown");
    await expect(page.getByTestId("congestion")).toContainText("Unknown");
    await expect(page.getByTestId("congestion")).not.toContainText("Normal");
    await expect(page.getByTestId("rpc-health")).toHaveAttribute("data-state", "unknown");
    await expect(page.getByTestId("rpc-health")).not.toContainText("RPC OK");
    await expect(page.getByTestId(`chain-${LIVE_CHAIN_ID}`)).toHaveAttribute("data-state", "unknown");
    await expect(page.getByTestId(`chain-${DOWN_CHAIN_ID}`)).toHaveAttribute("data-state", "unknown");
    await expect(page.getByTestId("service-banner")).toBeVisible();
    await expect(page.getByTestId("data-age")).toHaveCount(0);
    // The time of the last contact: when the stream was cut, between the stop and the moment the page said so.
    const lastContact = Number(await page.getByTestId("link-state").getByTestId("last-contact").getAttribute("data-value"));
    expect(lastContact).toBeGreaterThanOrEqual(stoppedAt);
    expect(lastContact).toBeLessThanOrEqual(seenAt);
    // Grey, and no green anywhere: every dot on the page (link, chains, RPC) is the idle grey (--idle, light
    // scheme), and the badge is in the muted text colour (--muted).
    const dots = await page.locator(".dot").evaluateAll((elements) => elements.map((element) => getComputedStyle(element).backgroundColor));
    expect(dots).toHaveLength(4);
    expect(new Set(dots)).toEqual(new Set(["rgb(138, 146, 156)"]));
    expect(await colourOf(page, '[data-testid="congestion"]', "color")).toBe("rgb(91, 100, 112)");
    await shootEverySize(page, "unreachable");
  } finally {
    await stack.startService();
  }
  // Same port, same token: the page finds the service again by itself, without a reload.
  await expect(page.getByTestId("link-state")).toHaveAttribute("data-state", "live", { timeout: 30_000 });
  await expect(page.getByTestId("rpc-health")).toHaveAttribute("data-state", "ok", { timeout: 30_000 });
  await expect(page.getByTestId("congestion")).toHaveAttribute("data-state", /^(normal|busy)$/);
  await expect(page.getByTestId(`chain-${LIVE_CHAIN_ID}`)).toHaveAttribute("data-state", /^(normal|busy)$/);
  await expect(page.getByTestId("service-banner")).toHaveCount(0);
  expect(await page.evaluate(() => (window as Window & { notReloaded?: boolean }).notReloaded)).toBe(true);
  expect(await page.evaluate(() => sessionStorage.getItem("gasfees.token"))).toBe(stack.token);
  const newest = await stack.mine(1);
  await expect(page.getByTestId("newest-block")).toHaveAttribute("data-value", String(newest));
  expect(await linePoints(page)).toHaveLength(500);
  // The cut stream and the checks made while the service was down.
  forgive(problems, /^console error: Failed to load resource: net::ERR_INCOMPLETE_CHUNKED_ENCODING \(http:\/\/127\.0\.0\.1:\d+\/v3\/[0-9a-f]+\/events\)$/);
  forgive(problems, /^console error: Failed to load resource: net::ERR_CONNECTION_REFUSED \(http:\/\/127\.0\.0\.1:\d+\/(networks|v3\/[0-9a-f]+\/events)\)$/);
});

test("a wrong token gets the rejected-token screen, which says how to get the current one", async ({ page, problems }) => {
  await page.goto(`${stack.url}/?token=${"f".repeat(32)}`);
  const screen = page.getByTestId("token-rejected");
  await expect(screen).toBeVisible();
  await expect(screen).toContainText("rejected");
  await expect(screen).toContainText("dashboard: http://127.0.0.1:…/?token=…");
  await expect(page.getByTestId("key-form")).toHaveCount(0);
  await expect(page.getByTestId("link-state")).toHaveCount(0);
  // A refused token is not kept for the next visit.
  expect(await page.evaluate(() => sessionStorage.getItem("gasfees.token"))).toBeNull();
  await shootEverySize(page, "rejected");
  // The current token, pasted there, opens the dashboard.
  await screen.getByLabel("API key or dashboard token").fill(stack.token);
  await screen.getByRole("button", { name: "Open the dashboard" }).click();
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  await expect(page.getByTestId("link-state")).toHaveAttribute("data-state", "live");
  forgive(
    problems,
    /^console error: Failed to load resource: the server responded with a status of 401 \(Unauthorized\) \(http:\/\/127\.0\.0\.1:\d+\/networks\)$/,
  );
});

test("the tooltip's text stays inside its box, and the box inside the chart, at every zoom", async ({ browser }) => {
  const history = await api<string[]>(`/networks/${LIVE_CHAIN_ID}/baseFeeHistory`);
  // The longest value text of the window, and the newest point (its box opens to the left, at the plot's edge).
  const longest = history.reduce((best, fee, index) => (fee.length > history[best]!.length ? index : best), 0);
  for (const deviceScaleFactor of [1, 1.25, 1.5, 2, 3]) {
    const context = await browser.newContext({ deviceScaleFactor, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${stack.dashboardUrl}#chain=${LIVE_CHAIN_ID}`);
      await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
      const surface = (await page.locator('[data-testid="fee-chart"] svg.recharts-surface').first().boundingBox())!;
      const points = await linePoints(page);
      for (const index of [longest, 0, points.length - 1]) {
        await page.mouse.move(surface.x + points[index]!.x, surface.y + points[index]!.y);
        const tooltip = page.getByTestId("chart-tooltip");
        await expect(tooltip).toBeVisible();
        const frame = (await tooltip.locator("rect").boundingBox())!;
        for (const line of await tooltip.locator("text").all()) {
          const text = (await line.boundingBox())!;
          const where = `zoom ${deviceScaleFactor}, point ${index}, "${await line.textContent()}": text ${JSON.stringify(text)} in box ${JSON.stringify(frame)}`;
          expect(text.x, where).toBeGreaterThanOrEqual(frame.x + 2);
          expect(text.x + text.width, where).toBeLessThanOrEqual(frame.x + frame.width - 2);
          expect(text.y, where).toBeGreaterThanOrEqual(frame.y);
          expect(text.y + text.height, where).toBeLessThanOrEqual(frame.y + frame.height);
        }
        expect(frame.x).toBeGreaterThanOrEqual(surface.x);
        expect(frame.x + frame.width).toBeLessThanOrEqual(surface.x + surface.width);
      }
      // The reference lines' plates fit their values too.
      for (const kind of ["p50", "busy"]) {
        const label = page.getByTestId(`ref-label-${kind}`);
        const plate = (await label.locator("rect").boundingBox())!;
        const text = (await label.locator("text").boundingBox())!;
        expect(text.x, `${kind} plate at zoom ${deviceScaleFactor}`).toBeGreaterThanOrEqual(plate.x + 1);
        expect(text.x + text.width, `${kind} plate at zoom ${deviceScaleFactor}`).toBeLessThanOrEqual(plate.x + plate.width - 1);
        expect(plate.x + plate.width, `${kind} plate inside the chart at zoom ${deviceScaleFactor}`).toBeLessThanOrEqual(surface.x + surface.width);
      }
      if (deviceScaleFactor === 2) await page.screenshot({ path: `${SCREENSHOTS}tooltip-1280x800-light-2x.png` });
    } finally {
      await context.close();
    }
  }
});

test("light and dark follow the system's colour scheme", async ({ page, problems }) => {
  void problems;
  await openDashboard(page);
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  const colours = async () => ({
    page: await colourOf(page, "html", "backgroundColor"),
    text: await colourOf(page, "html", "color"),
    panel: await colourOf(page, '[data-testid="chain-view"]', "backgroundColor"),
    line: await colourOf(page, '[data-testid="fee-chart"] path.recharts-curve', "stroke"),
  });
  await page.emulateMedia({ colorScheme: "light" });
  expect(await colours()).toEqual({ page: "rgb(246, 247, 249)", text: "rgb(27, 31, 36)", panel: "rgb(255, 255, 255)", line: "rgb(37, 99, 235)" });
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await colours()).toEqual({ page: "rgb(15, 18, 22)", text: "rgb(230, 233, 237)", panel: "rgb(23, 27, 33)", line: "rgb(96, 165, 250)" });
  await page.emulateMedia({ colorScheme: "light" });
  expect((await colours()).page).toBe("rgb(246, 247, 249)");
});
