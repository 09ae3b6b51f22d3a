import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { type ArrayBlock, ArrayHistoryView } from "../../../test/support/arrayHistoryView.ts";
import { type BucketLayout, bucketCountOf, bucketStats, type BucketSummary, equalBuckets, fixedWidthBuckets } from "./bucketStats.ts";

const PERCENTILES = [10, 25, 50, 75, 90];

/**
 * The naive reading of the layout: each block goes to the bucket whose [start, next start) holds its timestamp rounded
 * down (the last bucket up to `toSeconds` included), and each bucket's bigints are sorted and read at ceil(q/100 * N) - 1.
 */
function naiveBucketStats(blocks: readonly ArrayBlock[], layout: BucketLayout, percentiles: readonly number[]): BucketSummary[] {
  const { startsSeconds, toSeconds } = layout;
  const members: ArrayBlock[][] = startsSeconds.map(() => []);
  for (const block of blocks) {
    const second = Math.floor(block.timestamp);
    if (second < startsSeconds[0]! || second > toSeconds) continue;
    let index = startsSeconds.length - 1;
    while (startsSeconds[index]! > second) index--;
    members[index]!.push(block);
  }
  return members.map((inBucket, index) => {
    const startSeconds = startsSeconds[index]!;
    const endSeconds = index === startsSeconds.length - 1 ? toSeconds : startsSeconds[index + 1]!;
    if (inBucket.length === 0) return { startSeconds, endSeconds, blocks: 0, fees: undefined };
    const sorted = inBucket.map((block) => block.baseFeeWei).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return {
      startSeconds,
      endSeconds,
      blocks: inBucket.length,
      fees: {
        fromBlock: inBucket[0]!.block,
        toBlock: inBucket.at(-1)!.block,
        minWei: sorted[0]!,
        maxWei: sorted.at(-1)!,
        percentilesWei: percentiles.map((percentile) => sorted[Math.ceil((percentile * sorted.length) / 100) - 1]!),
      },
    };
  });
}

const blocksAt = (firstBlock: bigint, timestamps: readonly number[], feesWei: readonly bigint[]): ArrayBlock[] =>
  timestamps.map((timestamp, index) => ({ block: firstBlock + BigInt(index), timestamp, baseFeeWei: feesWei[index]! }));

test("a block on a boundary opens the later bucket; the last bucket holds the range's last second; time is the timestamp rounded down", () => {
  const blocks = blocksAt(100n, [99.9, 100, 109.99, 110, 119.5, 120, 120.75, 121], [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]);
  const layout = equalBuckets(100, 120, 2);
  assert.deepEqual(layout, { startsSeconds: [100, 110], toSeconds: 120 });
  const [first, last] = bucketStats(ArrayHistoryView.of(blocks).runs(0, 200), layout, [50]);
  assert.deepEqual(first, {
    startSeconds: 100,
    endSeconds: 110,
    blocks: 2,
    fees: { fromBlock: 101n, toBlock: 102n, minWei: 2n, maxWei: 3n, percentilesWei: [2n] },
  });
  // 110, 119.5, 120 and 120.75 (its second is 120); not 121, nor 99.9 before the range.
  assert.deepEqual(last, {
    startSeconds: 110,
    endSeconds: 120,
    blocks: 4,
    fees: { fromBlock: 103n, toBlock: 106n, minWei: 4n, maxWei: 7n, percentilesWei: [5n] },
  });
});

test("buckets without blocks say so, and a bucket spans runs and gaps in the history", () => {
  const blocks = [...blocksAt(10n, [0, 1, 2], [5n, 6n, 7n]), ...blocksAt(20n, [3, 4], [1n, 9n]), ...blocksAt(30n, [9], [4n])];
  const summaries = bucketStats(ArrayHistoryView.of(blocks, { runBlocks: 2 }).runs(0, 9), equalBuckets(0, 10, 5), [50]);
  assert.deepEqual(
    summaries.map((summary) => [summary.startSeconds, summary.endSeconds, summary.blocks, summary.fees?.fromBlock, summary.fees?.toBlock]),
    [
      [0, 2, 2, 10n, 11n],
      [2, 4, 2, 12n, 20n],
      [4, 6, 1, 21n, 21n],
      [6, 8, 0, undefined, undefined],
      [8, 10, 1, 30n, 30n],
    ],
  );
  assert.deepEqual(summaries[1]!.fees, { fromBlock: 12n, toBlock: 20n, minWei: 1n, maxWei: 7n, percentilesWei: [1n] });
});

test("equal buckets cut a range at whole seconds, one second at least; fixed-width ones start at the range's start", () => {
  assert.deepEqual(equalBuckets(0, 10, 3).startsSeconds, [0, 3, 6]);
  assert.deepEqual(equalBuckets(1000, 1000, 1), { startsSeconds: [1000], toSeconds: 1000 });
  assert.deepEqual(equalBuckets(0, 604_800, 672).startsSeconds.slice(0, 3), [0, 900, 1800]);
  assert.throws(() => equalBuckets(0, 10, 11), /at most one bucket per second/);
  assert.throws(() => equalBuckets(10, 9, 1), /not after/);
  assert.deepEqual(fixedWidthBuckets(0, 7200, 3600), { startsSeconds: [0, 3600], toSeconds: 7200 });
  assert.deepEqual(fixedWidthBuckets(0, 7201, 3600).startsSeconds, [0, 3600, 7200]);
  assert.deepEqual(fixedWidthBuckets(5, 5, 60).startsSeconds, [5]);
  assert.equal(bucketCountOf(0, 86_400, 3600), 24);
  assert.throws(() => fixedWidthBuckets(0, 10, 0), /at least 1/);
});

/** A history: blocks with gaps between them, timestamps with ties, fractions and jumps; fees narrow, wide, or tied. */
const historyArbitrary = fc
  .tuple(
    fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.constantFrom(0, 0, 0.25, 0.5, 1, 2, 12, 400)), { minLength: 0, maxLength: 1500, size: "max" }),
    fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 1_000_000_000n, max: 1_000_000_500n }), fc.constantFrom(7n, 8n)),
    fc.bigInt({ min: 0n, max: 2n ** 40n }),
  )
  .chain(([steps, , firstBlock]) =>
    fc
      .array(fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 1_000_000_000n, max: 1_000_000_500n }), fc.constantFrom(7n, 8n)), {
        minLength: steps.length,
        maxLength: steps.length,
      })
      .map((fees) => {
        let block = firstBlock;
        let timestamp = 1_700_000_000;
        return steps.map(([blockStep, seconds], index): ArrayBlock => {
          block += BigInt(blockStep);
          timestamp += seconds;
          return { block, timestamp, baseFeeWei: fees[index]! };
        });
      }),
  );

test("bucketStats equals sorting each bucket's bigints, for any history, range, layout and run length", () => {
  fc.assert(
    fc.property(
      historyArbitrary,
      fc.integer({ min: -50, max: 5000 }),
      fc.integer({ min: 0, max: 6000 }),
      fc.oneof(fc.record({ count: fc.integer({ min: 1, max: 40 }) }), fc.record({ width: fc.integer({ min: 1, max: 3000 }) })),
      fc.integer({ min: 1, max: 700 }),
      (blocks, fromOffset, span, division, runBlocks) => {
        const fromSeconds = 1_700_000_000 + fromOffset;
        const toSeconds = fromSeconds + span;
        const count = "count" in division ? Math.min(division.count, Math.max(1, span)) : 0;
        const layout = "count" in division ? equalBuckets(fromSeconds, toSeconds, count) : fixedWidthBuckets(fromSeconds, toSeconds, division.width);
        const view = ArrayHistoryView.of(blocks, { runBlocks });
        // The runs cover more than the range, as a reader's query may: what lies outside is left out.
        const summaries = bucketStats(view.runs(fromSeconds - 100, toSeconds + 100), layout, PERCENTILES);
        assert.deepEqual(summaries, naiveBucketStats(blocks, layout, PERCENTILES));
      },
    ),
    { numRuns: 200 },
  );
});

test("a bucket of many runs and more blocks than its first scratch buffer holds is summarised whole", () => {
  let state = 3n;
  const blocks = Array.from({ length: 20_000 }, (_, index): ArrayBlock => {
    state = (state * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    return { block: 5_000_000n + BigInt(index), timestamp: 1_700_000_000 + index * 0.25, baseFeeWei: 10_000_000n + (state % 1_000_000n) };
  });
  const layout = equalBuckets(1_700_000_000, 1_700_005_000, 2);
  const view = ArrayHistoryView.of(blocks, { runBlocks: 1000 });
  assert.deepEqual(bucketStats(view.runs(1_700_000_000, 1_700_005_001), layout, PERCENTILES), naiveBucketStats(blocks, layout, PERCENTILES));
});
