import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { type ArrayBlock, ArrayHistoryView } from "../../../test/support/arrayHistoryView.ts";
import { BucketScratch, bucketStats, bucketStatsInSlices, equalBuckets } from "./bucketStats.ts";
import { SlicedHistoryRead } from "./slicedHistoryRead.ts";

/** Every block a read hands out, in order, slice by slice of at most `sliceBlocks`. */
function readAll(view: ArrayHistoryView, fromSeconds: number, endSeconds: number, sliceBlocks: number): { blocks: bigint[]; slices: number[] } {
  const read = new SlicedHistoryRead(view, fromSeconds, endSeconds);
  const blocks: bigint[] = [];
  const slices: number[] = [];
  while (!read.done) {
    slices.push(
      read.next(sliceBlocks, (run) => {
        for (let index = 0; index < run.timestamps.length; index++) blocks.push(run.firstBlock + BigInt(index));
      }),
    );
  }
  return { blocks, slices };
}

test("a read in slices hands out each block of [from, end) once, in order, at most a slice's worth per step, whatever the slice size", () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ gap: fc.nat(3), step: fc.nat(3) }), { minLength: 0, maxLength: 300 }),
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 1, max: 17 }),
      fc.nat(200),
      fc.nat(200),
      (shape, sliceBlocks, runBlocks, fromOffset, span) => {
        let block = 1000n;
        let timestamp = 1_700_000_000;
        const blocks: ArrayBlock[] = shape.map(({ gap, step }, index) => {
          block += BigInt(1 + gap);
          timestamp += step * 0.5;
          return { block, timestamp, baseFeeWei: BigInt(index + 1) };
        });
        const view = ArrayHistoryView.of(blocks, { runBlocks });
        const fromSeconds = 1_700_000_000 + fromOffset;
        const endSeconds = fromSeconds + span;
        const expected = blocks.filter((held) => held.timestamp >= fromSeconds && held.timestamp < endSeconds).map((held) => held.block);
        const { blocks: read, slices } = readAll(view, fromSeconds, endSeconds, sliceBlocks);
        assert.deepEqual(read, expected);
        assert.ok(slices.every((count) => count <= sliceBlocks));
      },
    ),
  );
});

test("buckets summarised from a read in slices, big buckets worked out in steps of their own, are those of one pass over the same blocks", () => {
  const blocks: ArrayBlock[] = Array.from({ length: 5000 }, (_, index) => ({
    block: 7_000_000n + BigInt(index),
    timestamp: 1_700_000_000 + index * 0.25,
    baseFeeWei: 1_000_000_000n + BigInt((index * 7919) % 3001),
  }));
  const view = ArrayHistoryView.of(blocks, { runBlocks: 64 });
  const layout = equalBuckets(1_700_000_000, 1_700_001_249, 7);
  // One scratch for every summary, one after another, as the server's scans reuse it.
  const scratch = new BucketScratch([10, 50, 90]);
  for (const sliceBlocks of [1, 333, 700, 5000, 333]) {
    // Slices of 333 and 700 blocks defer the statistics of the buckets of 714 blocks to steps of their own.
    const steps = bucketStatsInSlices(new SlicedHistoryRead(view, 1_700_000_000, 1_700_001_250), layout, () => scratch, sliceBlocks);
    let step = steps.next();
    let read = 0;
    while (step.done !== true) {
      assert.ok(step.value <= sliceBlocks);
      read += step.value;
      step = steps.next();
    }
    assert.equal(read, 5000);
    assert.deepEqual(step.value, bucketStats(view.runs(1_700_000_000, 1_700_001_250), layout, [10, 50, 90]), `slices of ${sliceBlocks}`);
  }
});
