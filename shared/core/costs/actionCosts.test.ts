import assert from "node:assert/strict";
import { test } from "node:test";
import { blobCost } from "./actionCosts.ts";
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
