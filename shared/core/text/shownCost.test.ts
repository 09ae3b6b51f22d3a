import assert from "node:assert/strict";
import { test } from "node:test";
import type { Costs } from "../../wire/costs.ts";
import { shownCostOf } from "./shownCost.ts";

const tier = (fiat: string | null) => ({ wei: "1", fiat });
const costs = (fiat: string | null, price: Costs["price"], priceProblem: string | null): Costs => ({
  currency: "USD",
  price,
  priceProblem,
  l1FeeProblem: null,
  basis: { block: "1", baseFee: "1" },
  actions: [
    { id: "swap", name: "Swap", gas: "180000", txBytes: 300, low: tier(fiat), medium: tier("1.40"), high: tier(fiat), l1FeeWei: "0", operatorFeeWei: "0" },
  ],
});
const PRICE = { value: "3000", token: "ETH", feed: `0x${"1".repeat(40)}`, feedChainId: 1, updatedAt: 1 };

test("a glance shows the chosen action's medium tier in money, else says why it cannot", () => {
  assert.deepEqual(shownCostOf(costs("1", PRICE, null), "swap"), { kind: "money", fiat: "1.40", currency: "USD", name: "Swap" });
  assert.equal(shownCostOf(undefined, "swap"), undefined);
  assert.deepEqual(shownCostOf(costs(null, PRICE, null), "mint"), { kind: "none", why: 'no action "mint" on this chain' });
  // No price: nothing in money, even if a tier carried a figure.
  assert.deepEqual(shownCostOf(costs(null, null, "stale round"), "swap"), { kind: "none", why: "no USD price (stale round)" });
});
