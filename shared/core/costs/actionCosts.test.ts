import assert from "node:assert/strict";
import { test } from "node:test";
import { actionCost, blobCost } from "./actionCosts.ts";
import type { FeedPrice } from "./priceRound.ts";

// 2,000.00000000 USD a token, as a Chainlink USD feed (8 decimals) answers it.
const PRICE: FeedPrice = { answer: 200_000_000_000n, decimals: 8, updatedAt: 1_700_000_000 };

test("one blob costs 131,072 blob gas at the next blob base fee, in exact wei, and in money at the feed's price", () => {
  // 1 Gwei a blob gas: 131,072 Gwei = 0.000131072 ETH = 0.262144 USD, to the cent.
  assert.deepEqual(blobCost(1_000_000_000n, PRICE), { blobGas: 131_072n, wei: 131_072_000_000_000n, fiat: "0.26" });
  // On EIP-7918's floor (1 wei a blob gas) a blob costs far below a cent: two significant digits, never "0.00".
  assert.deepEqual(blobCost(1n, PRICE), { blobGas: 131_072n, wei: 131_072n, fiat: "0.00000000026" });
  assert.deepEqual(blobCost(5n, undefined), { blobGas: 131_072n, wei: 655_360n, fiat: null }, "no price: wei only");
});

test("each tier is gas x (next base fee + its tip) + the L1 fee + the operator fee; an unknown one adds nothing and stays unknown", () => {
  const action = { id: "swap", name: "Swap", gas: 100_000n, txBytes: 300 };
  const tips = { low: 1n, medium: 2n, high: 3n };
  const cost = actionCost(action, 10n, tips, 5_000n, PRICE, 700n);
  assert.deepEqual(
    [cost.tiers.low.wei, cost.tiers.medium.wei, cost.tiers.high.wei],
    [100_000n * 11n + 5_700n, 100_000n * 12n + 5_700n, 100_000n * 13n + 5_700n],
  );
  assert.equal(cost.operatorFeeWei, 700n);
  const unread = actionCost(action, 10n, tips, undefined, undefined, undefined);
  assert.equal(unread.tiers.medium.wei, 100_000n * 12n, "the L2 part only");
  assert.deepEqual([unread.l1FeeWei, unread.operatorFeeWei, unread.tiers.medium.fiat], [undefined, undefined, null]);
});
