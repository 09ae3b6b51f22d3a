import assert from "node:assert/strict";
import { test } from "node:test";
import { BLOB_SCHEDULES, knownBlobSchedule } from "../../shared/core/fees/blobFeeRule.ts";
import { blobUseOf, meanOfTarget } from "../../renderer/src/blobUse.ts";
import { applyBlocks } from "../../renderer/src/chainData.ts";

test("blob use against the target: each block's blob gas used ratio (of the maximum) times max / target; blocks without one left out", () => {
  const points = applyBlocks([], {
    kind: "all",
    firstBlock: "100",
    baseFees: ["1", "2", "3", "4"],
    blobBaseFees: ["0.000000001", null, "0.5", "0.6"],
    blobGasUsedRatios: [1, null, 0, 14 / 21],
  });
  assert.deepEqual(
    points.map((point) => [point.block, point.blobExact, point.blobUsedRatio]),
    [
      [100, "0.000000001", 1],
      [101, null, null],
      [102, "0.5", 0],
      [103, "0.6", 14 / 21],
    ],
  );
  const { uses, maxOfTarget } = blobUseOf(points, BLOB_SCHEDULES.bpo2);
  assert.equal(maxOfTarget, 1.5);
  assert.deepEqual(
    uses.map((use) => [use.block, Math.round(use.ofTarget * 1e9) / 1e9]),
    [
      [100, 1.5],
      [102, 0],
      [103, 1],
    ],
  );
  assert.equal(meanOfTarget(uses), (1.5 + 0 + uses[2]!.ofTarget) / 3);
  assert.equal(meanOfTarget([]), undefined);
  assert.equal(knownBlobSchedule(1), BLOB_SCHEDULES.bpo2);
  // A chain without blob fields: its points carry none.
  assert.equal(applyBlocks([], { kind: "all", firstBlock: "1", baseFees: ["1"] })[0]!.blobExact, undefined);
});
