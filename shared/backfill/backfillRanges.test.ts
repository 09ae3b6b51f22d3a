import assert from "node:assert/strict";
import { test } from "node:test";
import { BlockRangeSet, blocksIn } from "./backfillRanges.ts";

const range = (fromBlock: number, toBlock: number) => ({ fromBlock: BigInt(fromBlock), toBlock: BigInt(toBlock) });

test("held ranges merge when they overlap or touch, and stay sorted", () => {
  const set = new BlockRangeSet([range(100, 199), range(300, 399)]);
  set.add(range(200, 249));
  assert.deepEqual(set.ranges, [range(100, 249), range(300, 399)]);
  set.add(range(0, 9));
  set.add(range(250, 299));
  assert.deepEqual(set.ranges, [range(0, 9), range(100, 399)]);
  set.add(range(5, 150));
  assert.deepEqual(set.ranges, [range(0, 399)]);
  set.add(range(500, 500));
  set.add(range(450, 460));
  assert.deepEqual(set.ranges, [range(0, 399), range(450, 460), range(500, 500)]);
  assert.throws(() => set.add(range(5, 4)), RangeError);
  assert.equal(blocksIn(range(7, 7)), 1);
});

test("what is missing from a span, newest first, around the ranges held", () => {
  const set = new BlockRangeSet([range(100, 199), range(300, 399), range(600, 700)]);
  assert.deepEqual(set.missingNewestFirst(range(0, 999)), [range(701, 999), range(400, 599), range(200, 299), range(0, 99)]);
  assert.deepEqual(set.missingNewestFirst(range(150, 650)), [range(400, 599), range(200, 299)]);
  assert.deepEqual(set.missingNewestFirst(range(300, 399)), []);
  assert.deepEqual(set.missingNewestFirst(range(399, 400)), [range(400, 400)]);
  assert.deepEqual(new BlockRangeSet().missingNewestFirst(range(5, 9)), [range(5, 9)]);
});
