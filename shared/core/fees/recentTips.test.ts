import assert from "node:assert/strict";
import { test } from "node:test";
import { blockTipsOf, REWARD_PERCENTILES, TipWindow } from "./recentTips.ts";

const row = (block: number, p10: bigint) => blockTipsOf(BigInt(block), [0n, p10, p10 * 2n]);

test("the reward percentiles: the smallest tip, the 10th percentile, the largest", () => {
  assert.deepEqual(REWARD_PERCENTILES, [0, 10, 100]);
  assert.deepEqual(blockTipsOf(7n, [1n, 2n, 3n]), { block: 7n, minWei: 1n, p10Wei: 2n, maxWei: 3n });
  assert.throws(() => blockTipsOf(7n, [1n, 2n]), /holds 3 values \(got 2\)/);
});

test("the tip window keeps the newest block numbers, replaces re-mined blocks, and says when it changed", () => {
  const window = new TipWindow(3);
  assert.equal(window.write([]), false);
  assert.equal(window.write([row(1, 10n), row(2, 20n), row(3, 30n), row(4, 40n)]), true);
  assert.deepEqual(
    window.blocks.map((tips) => [tips.block, tips.p10Wei]),
    [
      [2n, 20n],
      [3n, 30n],
      [4n, 40n],
    ],
  );
  assert.equal(window.write([row(3, 30n), row(4, 40n)]), false, "the same tips again: no change");
  assert.equal(window.write([row(4, 41n), row(5, 50n)]), true);
  assert.deepEqual(
    window.blocks.map((tips) => [tips.block, tips.p10Wei]),
    [
      [3n, 30n],
      [4n, 41n],
      [5n, 50n],
    ],
  );
  // A gap: block 9 alone keeps blocks 7..9 only, so the older ones go.
  window.write([row(9, 90n)]);
  assert.deepEqual(
    window.blocks.map((tips) => tips.block),
    [9n],
  );
  assert.ok(Object.isFrozen(window.blocks));
});

test("rows older than the newest capacityBlocks are no change (a poll re-reading many blocks says nothing new)", () => {
  const window = new TipWindow(2);
  window.write([row(5, 50n), row(6, 60n)]);
  assert.equal(window.write([row(1, 1n), row(2, 2n), row(5, 50n), row(6, 60n)]), false);
  assert.deepEqual(
    window.blocks.map((tips) => tips.block),
    [5n, 6n],
  );
});
