import assert from "node:assert/strict";
import { test } from "node:test";
import { BlockWindow } from "../core/fees/blockWindow.ts";
import { snapshotOf } from "../../test/support/snapshotModel.ts";
import { blockTipsOf } from "../core/fees/recentTips.ts";
import { prepareAnswers } from "./preparedAnswers.ts";

function snapshotOfFees(feesWei: bigint[]) {
  const window = new BlockWindow(500);
  window.write(100n, feesWei);
  return snapshotOf(1, window, undefined)!;
}

test("the three bodies in the contract's exact shapes, and the newest block for X-Block-Number", () => {
  // 10 blocks: p50 = sorted[4], p90 = sorted[8].
  const fees = [37_378_956_101n, 1n, 2_000_000_000n, 15_829_297_990n, 5n, 6n, 7n, 8n, 9n, 10n];
  const prepared = prepareAnswers(snapshotOfFees(fees));
  assert.equal(prepared.busyThreshold.body.toString(), `{"busyThreshold":"15.82929799"}`);
  assert.equal(prepared.baseFeePercentile.body.toString(), `{"baseFeePercentile":"0.000000008"}`);
  assert.equal(
    prepared.baseFeeHistory.body.toString(),
    `["37.378956101","0.000000001","2","15.82929799","0.000000005","0.000000006","0.000000007","0.000000008","0.000000009","0.00000001"]`,
  );
  assert.equal(prepared.blockNumber, "109");
});

test("a strong ETag per body, different for different bodies, equal for equal bodies", () => {
  const a = prepareAnswers(snapshotOfFees([1n, 2n, 3n]));
  const b = prepareAnswers(snapshotOfFees([1n, 2n, 3n]));
  const c = prepareAnswers(snapshotOfFees([1n, 2n, 4n]));
  for (const body of [a.busyThreshold, a.baseFeePercentile, a.baseFeeHistory]) assert.match(body.etag, /^"[A-Za-z0-9_-]{22}"$/);
  assert.equal(a.baseFeeHistory.etag, b.baseFeeHistory.etag);
  assert.notEqual(a.baseFeeHistory.etag, c.baseFeeHistory.etag);
  assert.notEqual(a.busyThreshold.etag, a.baseFeePercentile.etag);
});

test("suggestedGasFees is prepared with the others, from the snapshot's tips, base fees and block time", () => {
  const window = new BlockWindow(500);
  window.write(100n, [8_000_000_000n, 8_000_000_000n]);
  const snapshot = snapshotOf(1, window, 8_000_000_000n, { recentTips: [blockTipsOf(101n, [1n, 2_000_000_000n, 3_000_000_000n])], blockTimeMs: 5000 })!;
  assert.equal(
    prepareAnswers(snapshot).suggestedGasFees.body.toString(),
    JSON.stringify({
      low: { suggestedMaxPriorityFeePerGas: "2", suggestedMaxFeePerGas: "11", minWaitTimeEstimate: 5000, maxWaitTimeEstimate: 20000 },
      medium: { suggestedMaxPriorityFeePerGas: "2", suggestedMaxFeePerGas: "12.125", minWaitTimeEstimate: 5000, maxWaitTimeEstimate: 10000 },
      high: { suggestedMaxPriorityFeePerGas: "2", suggestedMaxFeePerGas: "13.390625", minWaitTimeEstimate: 5000, maxWaitTimeEstimate: 5000 },
      estimatedBaseFee: "8",
      networkCongestion: 0.5,
      latestPriorityFeeRange: ["0.000000001", "3"],
      historicalPriorityFeeRange: ["0.000000001", "3"],
      historicalBaseFeeRange: ["8", "8"],
      priorityFeeTrend: "level",
      baseFeeTrend: "level",
    }),
  );
});
