import assert from "node:assert/strict";
import { test } from "node:test";
import { fiatOf } from "./fiat.ts";
import { baseFeeThresholdForFiat } from "./fiatThreshold.ts";

const PRICE = { answer: 189_351_000_000n, decimals: 8, updatedAt: 0 };

test("the threshold is the highest base fee whose cost stays at or below the amount", () => {
  const gas = 184_000n;
  const tip = 1_500_000_000n;
  const l1 = 12_345_678_901n;
  const threshold = baseFeeThresholdForFiat("1.50", PRICE, gas, tip, l1);
  const costAt = (baseFee: bigint) => gas * (baseFee + tip) + l1;
  // At the threshold the exact cost is at most 1.50; one wei per gas more and it is over.
  const budget = (150n * 10n ** 26n) / (100n * PRICE.answer);
  assert.ok(costAt(threshold) <= budget);
  assert.ok(costAt(threshold + 1n) > budget);
  assert.equal(fiatOf(costAt(threshold), PRICE.answer, PRICE.decimals), "1.50");
});

test("an amount the L1 fee or the tip alone exceeds gives 0", () => {
  assert.equal(baseFeeThresholdForFiat("0.0001", PRICE, 21_000n, 0n, 10n ** 15n), 0n);
  assert.equal(baseFeeThresholdForFiat("0.0001", PRICE, 21_000n, 10n ** 12n, 0n), 0n);
});
