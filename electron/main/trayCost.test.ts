// trayCostOf on the real FeeService's publications (scripted feeds, test/support/scriptedFeed.ts), its money part set
// as the cost readers set it: the tray's figure is /costs' medium tier of the chosen action, or none with why.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSettings } from "../../shared/config/settings.ts";
import { moneyNotReadYet } from "../../shared/service/chainMoney.ts";
import { scriptedService } from "../../test/support/scriptedFeed.ts";
import { trayCostOf } from "./trayCost.ts";

const GWEI = 1_000_000_000n;
const PRICE = { value: "2000", token: "ETH", feed: `0x${"5f".repeat(20)}`, feedChainId: 1, updatedAt: 1_700_000_000 };

test("the tray's cost: the chosen action's medium tier now, the user's own actions included; none without a price", async () => {
  const scripted = scriptedService([{ chainId: 1, name: "Ethereum" }]);
  try {
    scripted.write(1, 100n, [20n * GWEI, 20n * GWEI], { nextBaseFeeWei: 20n * GWEI });
    const publication = () => scripted.service.list().find((each) => each.chainId === 1);
    const settings = parseSettings({ trayAction: "transfer" });
    // No price read yet: no money figure, and why.
    assert.deepEqual(trayCostOf(publication(), settings), { kind: "none", why: "no USD price (the price has not been read yet)" });
    scripted.service.setMoney(1, {
      ...moneyNotReadYet("USD", "none"),
      price: { shown: PRICE, feedPrice: { answer: 2000n * 10n ** 8n, decimals: 8, updatedAt: PRICE.updatedAt } },
      priceProblem: null,
    });
    // 21,000 gas × (20 Gwei + no tip: no tips were seen) = 0.00042 ETH; × $2,000 = $0.84.
    assert.deepEqual(trayCostOf(publication(), settings), { kind: "money", fiat: "0.84", currency: "USD", name: "ETH transfer" });
    const own = parseSettings({ trayAction: "bridge", actions: [{ id: "bridge", name: "Bridge", gas: 100_000, txBytes: 300 }] });
    assert.deepEqual(trayCostOf(publication(), own), { kind: "money", fiat: "4.00", currency: "USD", name: "Bridge" });
    // No action chosen, or a chain without data: the base fee.
    assert.equal(trayCostOf(publication(), parseSettings({})), undefined);
    assert.equal(trayCostOf(undefined, settings), undefined);
  } finally {
    await scripted.service.stop();
  }
});
