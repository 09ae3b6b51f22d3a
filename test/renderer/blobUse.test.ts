import assert from "node:assert/strict";
import { test } from "node:test";
import { BLOB_SCHEDULES, knownBlobSchedule } from "../../shared/core/fees/blobFeeRule.ts";
import { blobUseOf, blobUseWords, meanOfTarget } from "../../renderer/src/blob/blobUse.ts";
import { applyBlocks } from "../../renderer/src/live/chainData.ts";

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

test("the blob use card says what each number covers: the newest block's use, and the mean of the bars drawn", () => {
  // The demo's picture: 300 quiet blocks, then 200 above the target. The mean is below the target, the newest above.
  const uses = Array.from({ length: 500 }, (_, i) => ({ block: 14_212 + i, ofTarget: i < 300 ? 0.8 : 15 / 14 }));
  assert.deepEqual(blobUseWords(uses), {
    newest: "107%",
    newestBlock: "block 14,711",
    mean: "91%",
    meanWords: "mean 91% of the 500 bars below",
  });
  assert.deepEqual(blobUseWords([]), { newest: "—", newestBlock: undefined, mean: "—", meanWords: "no blocks with blob use yet" });
  assert.equal(blobUseWords(uses.slice(0, 1)).meanWords, "mean 80% of the 1 bar below");
});
