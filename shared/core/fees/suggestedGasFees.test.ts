import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { blockTipsOf } from "./recentTips.ts";
import { networkCongestionOf } from "../../../test/support/snapshotModel.ts";
import { RECENT_BLOCKS, suggestGasFees, trendOf } from "./suggestedGasFees.ts";
import { GWEI, suggestionInput, tips } from "../../../test/support/suggestionInputs.ts";

test("max fees are rounded up to the wei, so they always cover the surged base fee", () => {
  const suggestion = suggestGasFees(suggestionInput({ estimatedBaseFeeWei: 1n }));
  // 1 wei * 9/8 = 1.125 -> 2; * 81/64 -> 2; * 729/512 -> 2.
  assert.deepEqual(
    [suggestion.low, suggestion.medium, suggestion.high].map((level) => level.maxFeePerGasWei),
    [2n, 2n, 2n],
  );
  const odd = suggestGasFees(suggestionInput({ estimatedBaseFeeWei: 1_000_000_007n }));
  assert.equal(odd.low.maxFeePerGasWei, (1_000_000_007n * 9n + 7n) / 8n);
  assert.equal(odd.high.maxFeePerGasWei, (1_000_000_007n * 729n + 511n) / 512n);
});

test("only the newest RECENT_BLOCKS block numbers count, gaps included", () => {
  // A very high tip at block 1 is older than 20 blocks before block 40: ignored.
  const recentTips = [tips(1, 0n, 1000n * GWEI, 1000n * GWEI), tips(25, 1n, 2n, 3n), tips(40, 4n, 5n, 6n)];
  const suggestion = suggestGasFees(suggestionInput({ recentTips }));
  assert.equal(RECENT_BLOCKS, 20);
  assert.deepEqual(suggestion.historicalPriorityFeeRangeWei, [1n, 6n]);
  assert.equal(suggestion.high.maxPriorityFeePerGasWei, 5n);
  assert.equal(suggestion.low.maxPriorityFeePerGasWei, 2n);
  assert.deepEqual(suggestion.latestPriorityFeeRangeWei, [4n, 6n]);
});

test("no reward data yet: every tip is 0, the ranges are zero, the trend level", () => {
  const suggestion = suggestGasFees(suggestionInput());
  for (const level of [suggestion.low, suggestion.medium, suggestion.high]) assert.equal(level.maxPriorityFeePerGasWei, 0n);
  assert.deepEqual(suggestion.latestPriorityFeeRangeWei, [0n, 0n]);
  assert.deepEqual(suggestion.historicalPriorityFeeRangeWei, [0n, 0n]);
  assert.equal(suggestion.priorityFeeTrend, "level");
  assert.equal(suggestion.low.maxFeePerGasWei, 9n * GWEI);
});

test("wait estimates follow the chain's block time (2 s: 2..8 s, 2..4 s, 2..2 s)", () => {
  const suggestion = suggestGasFees(suggestionInput({ blockTimeMs: 2000 }));
  assert.deepEqual(
    [suggestion.low, suggestion.medium, suggestion.high].map((level) => [level.minWaitTimeEstimateMs, level.maxWaitTimeEstimateMs]),
    [
      [2000, 8000],
      [2000, 4000],
      [2000, 2000],
    ],
  );
});

test("trends: the newer half's median against the older half's", () => {
  assert.equal(trendOf([]), "level");
  assert.equal(trendOf([5n]), "level");
  assert.equal(trendOf([1n, 2n]), "up");
  assert.equal(trendOf([2n, 1n]), "down");
  assert.equal(trendOf([3n, 1n, 3n]), "level", "the middle value of an odd count is in neither half");
  assert.equal(trendOf([1n, 9n, 9n, 2n, 9n, 9n]), "level", "medians 9 and 9: equal is level");
  assert.equal(trendOf([1n, 9n, 9n, 1n, 2n, 9n]), "down", "medians 9 then 2");
  assert.equal(suggestGasFees(suggestionInput({ recentBaseFeesWei: [10n, 10n, 10n, 11n, 12n, 12n] })).baseFeeTrend, "up");
});

test("invariants over random inputs: low <= medium <= high, max fee >= base fee + tip, congestion in 0..1", () => {
  const wei = fc.bigInt({ min: 0n, max: 10n ** 13n });
  const row = fc.tuple(wei, wei, wei).map((values) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  fc.assert(
    fc.property(
      fc.array(row, { maxLength: 30 }),
      fc.array(fc.bigInt({ min: 1n, max: 10n ** 13n }), { minLength: 1, maxLength: 40 }),
      fc.bigInt({ min: 0n, max: 10n ** 13n }),
      fc.integer({ min: 1, max: 60_000 }),
      (rows, baseFees, current, blockTimeMs) => {
        const recentTips = rows.map((values, i) => blockTipsOf(BigInt(1000 + i), values));
        const sorted = [...baseFees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const networkCongestion = networkCongestionOf(sorted, current);
        const s = suggestGasFees({
          estimatedBaseFeeWei: current,
          recentTips,
          recentBaseFeesWei: baseFees,
          windowMinWei: sorted[0]!,
          windowMaxWei: sorted[sorted.length - 1]!,
          networkCongestion,
          blockTimeMs,
        });
        assert.ok(networkCongestion >= 0 && networkCongestion <= 1);
        const levels = [s.low, s.medium, s.high];
        for (const level of levels) {
          assert.ok(level.maxFeePerGasWei >= current + level.maxPriorityFeePerGasWei);
          assert.ok(level.minWaitTimeEstimateMs <= level.maxWaitTimeEstimateMs);
        }
        for (let i = 1; i < levels.length; i++) {
          assert.ok(levels[i - 1]!.maxPriorityFeePerGasWei <= levels[i]!.maxPriorityFeePerGasWei);
          assert.ok(levels[i - 1]!.maxFeePerGasWei <= levels[i]!.maxFeePerGasWei);
          assert.ok(levels[i - 1]!.maxWaitTimeEstimateMs >= levels[i]!.maxWaitTimeEstimateMs);
        }
        assert.ok(s.latestPriorityFeeRangeWei[0] <= s.latestPriorityFeeRangeWei[1]);
        assert.ok(s.historicalPriorityFeeRangeWei[0] <= s.historicalPriorityFeeRangeWei[1]);
      },
    ),
    { numRuns: 300 },
  );
});
