// Costs in money as a newcomer meets them in the demo (`npm run serve -- --demo`, its dashboard in Debian's Chromium):
// the "what it costs now" panel shows exactly what GET /networks/{chainId}/costs answers (each action at each tier,
// in the currency with a price, in Gwei of the gas token without one, the reason said plainly), and the chain tile
// shows a chosen action's cost instead of the base fee.
import { expect, test } from "@playwright/test";
import { moneyText } from "../../shared/core/text/money.ts";
import { shortGwei } from "../../shared/core/text/shortGwei.ts";
import type { Costs } from "../../shared/wire/costs.ts";
import { costsSchema } from "../../shared/wire/costs.ts";

/** A Gwei string of the API in wei, exactly. */
function parseGweiWei(gwei: string): bigint {
  const [whole = "0", fraction = ""] = gwei.split(".");
  return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
}
import { demoServeFixture } from "./support/demoServe.ts";
import { README_SCREENSHOTS, shootEverySize } from "./support/screenshots.ts";

const DEMO_CHAIN_ID = 31337;
const demo = demoServeFixture();

test("the costs panel shows what /costs answers, and the tile shows a chosen action's cost", async ({ page }) => {
  test.setTimeout(240_000);
  const { dashboardUrl } = await demo.start();
  const url = new URL(dashboardUrl);
  const token = url.searchParams.get("token")!;
  const costsNow = async (): Promise<Costs> => {
    const response = await fetch(`${url.origin}/v3/${token}/networks/${DEMO_CHAIN_ID}/costs`);
    expect(response.status).toBe(200);
    return costsSchema.parse(await response.json());
  };
  await page.goto(dashboardUrl);
  const panel = page.getByTestId("costs-panel");
  await expect(panel.getByTestId("costs-table")).toBeVisible({ timeout: 60_000 });

  // The panel at one block against the API at the same block: every action, every tier, to the wei.
  let costs: Costs | undefined;
  await expect
    .poll(
      async () => {
        costs = await costsNow();
        // The demo's price feed and L1 fee oracle are read once the service has started. The panel asks /costs at
        // each new block and at a price change, so an L1 fee read between two blocks reaches it at the next block.
        if (costs.price === null || costs.l1FeeProblem !== null || costs.actions[0]!.l1FeeWei === "0") return false;
        if ((await panel.getByTestId("costs-basis").getAttribute("data-block")) !== costs.basis.block) return false;
        return (await panel.getByTestId("cost-transfer-low").getAttribute("data-wei")) === costs.actions[0]!.low.wei;
      },
      { timeout: 30_000, message: "the panel and /costs at the same block, with the demo's price read" },
    )
    .toBe(true);
  // The demo chain runs at one block per 2 s: read the page at once, before the next block changes it.
  const shown = await panel.evaluate((element) =>
    [...element.querySelectorAll("td[data-wei]")].map((cell) => ({
      id: cell.getAttribute("data-testid"),
      wei: cell.getAttribute("data-wei"),
      text: cell.textContent,
    })),
  );
  const blobBasisTitle = await panel.getByTestId("cost-blob-basis").getAttribute("title");
  const tips = await Promise.all((["low", "medium", "high"] as const).map((tier) => panel.getByTestId(`costs-tip-${tier}`).getAttribute("data-value")));
  const spread = panel.getByTestId("costs-tier-spread");
  const spreadText = (await spread.count()) === 0 ? undefined : await spread.textContent();
  const block = await panel.getByTestId("costs-basis").getAttribute("data-block");
  test.skip(block !== costs!.basis.block, "a new block arrived between reading the API and the page");
  for (const action of costs!.actions) {
    for (const tier of ["low", "medium", "high"] as const) {
      const cell = shown.find((each) => each.id === `cost-${action.id}-${tier}`);
      expect(cell?.wei, `${action.id} ${tier}`).toBe(action[tier].wei);
      const fiat = action[tier].fiat;
      if (fiat !== null) expect(cell?.text).toBe(moneyText(fiat, costs!.currency));
      else expect(cell?.text).toMatch(/ Gwei$/);
    }
  }
  // The demo's blocks carry tips (demoTips.ts): three different tiers, each tip as /costs implies it, and where an
  // action's figures still read alike (a tenth of a Gwei is under a cent of a transfer), the panel says why.
  const transfer = costs!.actions.find((action) => action.id === "transfer")!;
  const impliedTip = (tier: "low" | "medium" | "high") =>
    (BigInt(transfer[tier].wei) - BigInt(transfer.l1FeeWei!)) / BigInt(transfer.gas) - parseGweiWei(costs!.basis.baseFee);
  expect(tips.map((tip) => parseGweiWei(tip!))).toEqual([impliedTip("low"), impliedTip("medium"), impliedTip("high")]);
  expect(impliedTip("low") > 0n && impliedTip("low") < impliedTip("medium") && impliedTip("medium") < impliedTip("high"), tips.join(", ")).toBe(true);
  const readAlike = shown.some((cell, _, all) => {
    const [action, tier] = /^cost-(.+)-(low|medium|high)$/.exec(cell.id ?? "")?.slice(1) ?? [];
    return tier === "medium" && all.some((other) => (other.id === `cost-${action}-low` || other.id === `cost-${action}-high`) && other.text === cell.text);
  });
  if (readAlike)
    expect(spreadText).toMatch(/^The tiers differ by their tips only \(.* Gwei, beside a next base fee of .* Gwei\): for .* less than the rounding/);
  else expect(spreadText).toBeUndefined();

  // The demo's chain has blob fees: one blob's cost, one figure across the tiers, in money, with its blob base fee.
  expect(costs!.blob, "the demo has blob fees").toBeDefined();
  const blobCell = shown.find((each) => each.id === "cost-blob-cost");
  expect(blobCell?.wei).toBe(costs!.blob!.wei);
  expect(costs!.blob!.fiat, "the demo's blob in money").not.toBeNull();
  expect(blobCell?.text).toBe(`${moneyText(costs!.blob!.fiat!, costs!.currency)} at blob base fee ${shortGwei(costs!.basis.blobBaseFee!)} Gwei`);
  expect(blobBasisTitle).toBe(`${costs!.basis.blobBaseFee!} Gwei`);
  await expect(panel.getByTestId("cost-blob").locator("th")).toHaveText("One blob 131,072 blob gas");
  await expect(panel.getByTestId("cost-blob-cost")).toHaveAttribute("colspan", "3");
  // The demo's chain carries a Chainlink-style ETH / USD feed and the OP stack's fee oracle (docs/demo.md): a newcomer
  // sees money, with the L1 part apart.
  expect(costs!.price, "the demo has a price").not.toBeNull();
  const price = panel.getByTestId("costs-price");
  await expect(price).toHaveAttribute("data-state", "current");
  await expect(price).toContainText(moneyText(costs!.price!.value, costs!.currency));
  // The panel's basis follows the cards' newest block, block after block (it asks at each of the demo's 2 s blocks).
  await page.evaluate(() => {
    const caught: Record<string, boolean> = {};
    (window as unknown as { basisCaught: Record<string, boolean> }).basisCaught = caught;
    new MutationObserver(() => {
      const newest = document.querySelector('[data-testid="newest-block"]')?.getAttribute("data-value");
      const basis = document.querySelector('[data-testid="costs-basis"]')?.getAttribute("data-block");
      if (newest) caught[newest] ||= basis === newest;
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  const firstWatched = Number(await page.getByTestId("newest-block").getAttribute("data-value"));
  await expect
    .poll(async () => Number(await page.getByTestId("newest-block").getAttribute("data-value")), { timeout: 60_000 })
    .toBeGreaterThan(firstWatched + 6);
  const caught = await page.evaluate(() => (window as unknown as { basisCaught: Record<string, boolean> }).basisCaught);
  // Each block between the first watched and the newest (whose answer may still be on its way): caught before the next.
  const watched = Object.entries(caught).filter(([block]) => Number(block) > firstWatched && Number(block) <= firstWatched + 6);
  expect(watched.filter(([, seen]) => seen).length, JSON.stringify(caught)).toBeGreaterThanOrEqual(5);
  await shootEverySize(page, "costs-demo");
  await shootEverySize(page, "demo-costs", { target: panel, into: README_SCREENSHOTS });

  // The tile: a chosen action's cost instead of the base fee, kept for the next visit; back to Gwei.
  const picker = page.getByTestId("shown-action");
  await picker.selectOption("swap");
  const tile = page.getByTestId(`chain-${DEMO_CHAIN_ID}`);
  await expect(tile.getByTestId(`chain-${DEMO_CHAIN_ID}-cost`)).toContainText("swap");
  await page.reload();
  await expect(page.getByTestId("shown-action")).toHaveValue("swap");
  await shootEverySize(page, "costs-tiles");
  await page.getByTestId("shown-action").selectOption("");
  await expect(tile.getByTestId(`chain-${DEMO_CHAIN_ID}-fee`)).toContainText("Gwei");
  await expect(tile.getByTestId(`chain-${DEMO_CHAIN_ID}-no-cost`)).toHaveCount(0);
});
