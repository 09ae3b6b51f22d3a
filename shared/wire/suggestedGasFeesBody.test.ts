import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { parseGwei } from "viem";
import { blockTipsOf } from "../core/fees/recentTips.ts";
import { suggestGasFees } from "../core/fees/suggestedGasFees.ts";
import { suggestedGasFeesBody } from "./suggestedGasFeesBody.ts";
import { GWEI, suggestionInput, tips } from "../../test/support/suggestionInputs.ts";

test("twenty blocks of tips: each level is a nearest-rank share of the blocks' 10th-percentile tips, exactly", () => {
  // Block 101..120: the 10th-percentile tip of block 100 + i is i Gwei (1..20), shuffled so that order does not matter.
  const order = [7, 3, 20, 1, 15, 9, 12, 2, 18, 5, 11, 4, 19, 6, 14, 8, 17, 10, 16, 13];
  const recentTips = order.map((gwei, i) => tips(101 + i, BigInt(gwei) * GWEI - 1n, BigInt(gwei) * GWEI, BigInt(gwei) * GWEI + 7n));
  const body = suggestedGasFeesBody(suggestGasFees(suggestionInput({ recentTips })));
  // low = p50 of 1..20 = 10; medium = p75 = 15; high = p95 = 19.
  // Max fees: 8 Gwei * (9/8)^n rounded up: 9, 10.125, 11.390625 Gwei.
  assert.deepEqual(body, {
    low: { suggestedMaxPriorityFeePerGas: "10", suggestedMaxFeePerGas: "19", minWaitTimeEstimate: 12_000, maxWaitTimeEstimate: 48_000 },
    medium: { suggestedMaxPriorityFeePerGas: "15", suggestedMaxFeePerGas: "25.125", minWaitTimeEstimate: 12_000, maxWaitTimeEstimate: 24_000 },
    high: { suggestedMaxPriorityFeePerGas: "19", suggestedMaxFeePerGas: "30.390625", minWaitTimeEstimate: 12_000, maxWaitTimeEstimate: 12_000 },
    estimatedBaseFee: "8",
    networkCongestion: 0.25,
    // The newest block (120) paid 13 Gwei at its 10th percentile: its range is [13 Gwei - 1 wei, 13 Gwei + 7 wei].
    latestPriorityFeeRange: ["12.999999999", "13.000000007"],
    historicalPriorityFeeRange: ["0.999999999", "20.000000007"],
    historicalBaseFeeRange: ["5", "20"],
    // Older half 7,3,20,1,15,9,12,2,18,5 (median 7) against newer 11,4,19,6,14,8,17,10,16,13 (median 11).
    priorityFeeTrend: "up",
    baseFeeTrend: "level",
  });
  // Field order is the hosted service's.
  assert.deepEqual(Object.keys(body), [
    "low",
    "medium",
    "high",
    "estimatedBaseFee",
    "networkCongestion",
    "latestPriorityFeeRange",
    "historicalPriorityFeeRange",
    "historicalBaseFeeRange",
    "priorityFeeTrend",
    "baseFeeTrend",
  ]);
});

test("every fee of the body is the exact Gwei string of its wei value", () => {
  const wei = fc.bigInt({ min: 0n, max: 10n ** 13n });
  fc.assert(
    fc.property(fc.array(fc.tuple(wei, wei, wei), { maxLength: 30 }), wei, (rows, current) => {
      const recentTips = rows.map((values, i) =>
        blockTipsOf(
          BigInt(1000 + i),
          [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        ),
      );
      const suggestion = suggestGasFees(suggestionInput({ estimatedBaseFeeWei: current, recentTips }));
      const body = suggestedGasFeesBody(suggestion);
      for (const level of ["low", "medium", "high"] as const) {
        assert.equal(parseGwei(body[level].suggestedMaxPriorityFeePerGas), suggestion[level].maxPriorityFeePerGasWei);
        assert.equal(parseGwei(body[level].suggestedMaxFeePerGas), suggestion[level].maxFeePerGasWei);
      }
      assert.equal(parseGwei(body.estimatedBaseFee), current);
      assert.deepEqual(
        body.historicalPriorityFeeRange.map((gwei) => parseGwei(gwei)),
        [...suggestion.historicalPriorityFeeRangeWei],
      );
    }),
    { numRuns: 300 },
  );
});
