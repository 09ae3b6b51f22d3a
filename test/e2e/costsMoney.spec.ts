// Costs in money on a chain with a real price feed: the real service following a Hardhat node that replays real
// mainnet blocks and carries Chainlink's aggregator and the OP stack's fee oracle (support/costsService.ts). The
// "what it costs now" panel shows /costs exactly, with the rollup's L1 fee apart and the price with its feed; the tile,
// the 1 h / 24 h / 7 d views and the cheapest hours show a chosen action's cost, each figure the test computes on its
// own from the base fees and the price points the service holds; a stale price is said plainly and never shown.
import { expect, type Page, test } from "@playwright/test";
import { moneyText } from "../../shared/core/text/money.ts";
import { fiatOf } from "../../shared/core/costs/fiat.ts";
import type { BaseFeeStatsBucket } from "../../shared/wire/baseFeeStats.ts";
import { type Costs, costsSchema, type PriceHistory } from "../../shared/wire/costs.ts";
import { COSTS_CHAIN_ID, COSTS_KEY, type CostsStack, PRICE_ROUNDS, startCostsStack } from "./support/costsHarness.ts";
import { README_SCREENSHOTS, shootEverySize } from "./support/screenshots.ts";

let stack: CostsStack;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  stack = await startCostsStack();
});

test.afterAll(async () => {
  await stack?.stop();
});

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, { headers: { authorization: `Basic ${Buffer.from(`${COSTS_KEY}:`).toString("base64")}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

async function openDashboard(page: Page): Promise<void> {
  await page.goto(`${stack.dashboardUrl}#chain=${COSTS_CHAIN_ID}`);
  // A price shown: the feed's newest, or the last one believed while a jump is held (the tests run in order).
  await expect(page.getByTestId("costs-price")).toHaveAttribute("data-state", /^(current|held)$/, { timeout: 60_000 });
}

/** The price points' own money figure for a cost in wei at `price` (a decimal string), by the backend's one rounding. */
function fiatAt(wei: bigint, price: string): string {
  const [whole = "0", fraction = ""] = price.split(".");
  return fiatOf(wei, BigInt(whole + fraction), fraction.length);
}

function weiOfGwei(gwei: string): bigint {
  const [whole = "0", fraction = ""] = gwei.split(".");
  return BigInt(whole + fraction.padEnd(9, "0"));
}

test("the panel shows every action's cost in money as /costs does, the L1 fee apart, the price with its feed", async ({ page }) => {
  await openDashboard(page);
  const panel = page.getByTestId("costs-panel");
  const costs = costsSchema.parse(await api<Costs>(`/networks/${COSTS_CHAIN_ID}/costs`));
  // The replay's chain is still: the panel and the API are at the same block.
  await expect(panel.getByTestId("costs-basis")).toHaveAttribute("data-block", costs.basis.block);
  expect(costs.price?.value).toBe(PRICE_ROUNDS[PRICE_ROUNDS.length - 1]);
  await expect(panel.getByTestId("costs-price")).toContainText(`ETH ${moneyText(costs.price!.value, "USD")}`);
  await expect(panel.getByTestId("costs-price")).toContainText(`${costs.price!.feed.slice(0, 6)}…${costs.price!.feed.slice(-4)}`);
  await expect(panel.getByTestId("costs-table")).toHaveAttribute("data-currency", "USD");
  // A rollup without blob fees of its own (Hardhat's node gives none): /costs has no blob, and the panel no blob row.
  expect(costs.blob).toBeUndefined();
  expect(costs.basis.blobBaseFee).toBeUndefined();
  await expect(panel.getByTestId("cost-transfer-low")).toBeVisible();
  await expect(panel.getByTestId("cost-blob")).toHaveCount(0);
  for (const action of costs.actions) {
    expect(action.l1FeeWei, `${action.id}: an OP-stack chain charges an L1 fee`).not.toBe("0");
    for (const tier of ["low", "medium", "high"] as const) {
      const cell = panel.getByTestId(`cost-${action.id}-${tier}`);
      await expect(cell).toHaveAttribute("data-wei", action[tier].wei);
      await expect(cell).toHaveText(moneyText(action[tier].fiat!, "USD"));
    }
    // The L1 part, apart: its own money figure at the same price.
    await expect(panel.getByTestId(`cost-${action.id}-l1`)).toHaveText(moneyText(fiatAt(BigInt(action.l1FeeWei!), costs.price!.value), "USD"));
  }
  // The page with the tiles in the swap's cost, scrolled to the panel (under the chart).
  await page.getByTestId("shown-action").selectOption("swap");
  await expect(page.getByTestId(`chain-${COSTS_CHAIN_ID}-cost`)).toBeVisible();
  await panel.evaluate((element) => element.scrollIntoView({ block: "center" }));
  await shootEverySize(page, "costs", { into: README_SCREENSHOTS });
  await page.getByTestId("shown-action").selectOption("");
  await shootEverySize(page, "costs-money-panel", { target: panel });
});

test("the tile, the 24 h view and the cheapest hours show the chosen action's cost from the price points held", async ({ page }) => {
  await openDashboard(page);
  const costs = costsSchema.parse(await api<Costs>(`/networks/${COSTS_CHAIN_ID}/costs`));
  const swap = costs.actions.find((action) => action.id === "swap")!;
  await page.getByTestId("shown-action").selectOption("swap");
  // The tile: the swap's medium tier now.
  await expect(page.getByTestId(`chain-${COSTS_CHAIN_ID}-cost`)).toHaveAttribute("data-value", swap.medium.fiat!);
  await expect(page.getByTestId(`chain-${COSTS_CHAIN_ID}-cost`)).toContainText(moneyText(swap.medium.fiat!, "USD"));

  // The 24 h view: each bucket's median cost is gas × its median base fee × the price in force at its middle.
  await page.getByTestId("range-24h").click();
  const chart = page.getByTestId("stats-chart");
  await expect(chart).toHaveAttribute("data-state", "ready");
  await expect(chart).toHaveAttribute("data-unit", "USD");
  await expect(page.getByTestId("stats-caption")).toContainText("What one Swap (106,467 gas) cost in USD");
  await expect(page.getByTestId("stats-caption")).toContainText("without the tip or a rollup's L1 fee");
  const buckets = await api<BaseFeeStatsBucket[]>(`/networks/${COSTS_CHAIN_ID}/baseFeeStats?window=24h&buckets=288`);
  const points = await api<PriceHistory>(`/networks/${COSTS_CHAIN_ID}/priceHistory?from=0`);
  expect(points.map((point) => point.value)).toEqual([...PRICE_ROUNDS]);
  const priceAt = (seconds: number) => points.filter((point) => point.time <= seconds).at(-1)?.value;
  const priced = buckets.filter((bucket) => bucket.p50 !== undefined && priceAt(Math.floor((bucket.start + bucket.end) / 2)) !== undefined);
  expect(priced.length, "buckets with blocks and a price").toBeGreaterThan(100);
  // Hover the middle of a priced bucket: the tooltip's median is its cost.
  const bucket = priced[Math.floor(priced.length / 2)]!;
  const index = buckets.findIndex((each) => each.start === bucket.start);
  const area = chart.getByTestId("chart-hover-area");
  const box = (await area.boundingBox())!;
  await page.mouse.move(box.x + ((index + 0.5) / buckets.length) * box.width, box.y + box.height / 2);
  const expected = fiatAt(BigInt(swap.gas) * weiOfGwei(bucket.p50!), priceAt(Math.floor((bucket.start + bucket.end) / 2))!);
  await expect(chart.locator(".chart-tooltip-value").first()).toHaveText(`median ${moneyText(expected, "USD")}`);
  await shootEverySize(page, "costs-24h", { target: page.getByTestId("chain-view") });

  // The cheapest hours: coloured by each hour's median cost, the legend in dollars.
  const heatmap = page.getByTestId("heatmap");
  await expect(heatmap).toHaveAttribute("data-state", "ready");
  await expect(heatmap).toHaveAttribute("data-unit", "USD");
  await expect(heatmap.getByTestId("heat-legend")).toContainText("$");
  await expect(heatmap).toContainText("what one Swap cost");
  await shootEverySize(page, "costs-heatmap", { target: heatmap });

  // Back to Gwei: everything as before.
  await page.getByTestId("shown-action").selectOption("");
  await expect(chart).toHaveAttribute("data-unit", "Gwei");
  await expect(heatmap).toHaveAttribute("data-unit", "Gwei");
  await expect(page.getByTestId(`chain-${COSTS_CHAIN_ID}-fee`)).toContainText("Gwei");
});

test("a price that jumps tenfold with no endpoint to confirm it is held: the last price stays, and the panel says why", async ({ page }) => {
  await openDashboard(page);
  const price = page.getByTestId("costs-price");
  const before = costsSchema.parse(await api<Costs>(`/networks/${COSTS_CHAIN_ID}/costs`));
  await stack.jumpPrice();
  await expect(price).toHaveAttribute("data-state", "held", { timeout: 20_000 });
  const costs = costsSchema.parse(await api<Costs>(`/networks/${COSTS_CHAIN_ID}/costs`));
  expect(costs.price?.value).toBe(before.price!.value);
  expect(costs.priceProblem).not.toBeNull();
  await expect(price).toContainText(`ETH ${moneyText(before.price!.value, "USD")}`);
  await expect(page.getByTestId("costs-price-held")).toContainText(costs.priceProblem!.replace(/[.\s]+$/, ""));
  await expect(page.getByTestId("costs-table")).toHaveAttribute("data-currency", "USD");
});

test("a stale price is said plainly: no money figure anywhere, Gwei instead, the reason given", async ({ page }) => {
  await openDashboard(page);
  await page.getByTestId("shown-action").selectOption("swap");
  await expect(page.getByTestId(`chain-${COSTS_CHAIN_ID}-cost`)).toBeVisible();
  await stack.stalePrice();
  const price = page.getByTestId("costs-price");
  await expect(price).toHaveAttribute("data-state", "none", { timeout: 20_000 });
  const costs = costsSchema.parse(await api<Costs>(`/networks/${COSTS_CHAIN_ID}/costs`));
  expect(costs.price).toBeNull();
  await expect(price).toContainText(`No USD price: ${costs.priceProblem!}`);
  await expect(page.getByTestId("costs-table")).toHaveAttribute("data-currency", "gwei");
  await expect(page.getByTestId("costs-panel").locator("td", { hasText: "$" })).toHaveCount(0);
  // The tile keeps the base fee and says why.
  await expect(page.getByTestId(`chain-${COSTS_CHAIN_ID}-cost`)).toHaveCount(0);
  await expect(page.getByTestId(`chain-${COSTS_CHAIN_ID}-no-cost`)).toHaveText("(no price)");
  await shootEverySize(page, "costs-stale", { target: page.getByTestId("costs-panel") });
});
