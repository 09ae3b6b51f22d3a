// Costs in money as a newcomer meets them in the demo (`npm run serve -- --demo`, its dashboard in Debian's Chromium):
// the "what it costs now" panel shows exactly what GET /networks/{chainId}/costs answers (each action at each tier,
// in the currency with a price, in Gwei of the gas token without one, the reason said plainly), and the chain tile
// shows a chosen action's cost instead of the base fee.
import { expect, test } from "@playwright/test";
import { moneyText } from "../../shared/core/text/money.ts";
import { shortGwei } from "../../shared/core/text/shortGwei.ts";
import type { Costs } from "../../shared/wire/costs.ts";
import { costsSchema } from "../../shared/wire/costs.ts";
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
