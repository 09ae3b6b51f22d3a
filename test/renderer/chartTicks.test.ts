import assert from "node:assert/strict";
import { test } from "node:test";
import { blockTicks, feeTicks } from "../../renderer/src/chart/chartTicks.ts";

test("block ticks: round numbers about six across the window, inside it", () => {
  assert.deepEqual(blockTicks(17_180_000, 17_180_499), [17_180_000, 17_180_100, 17_180_200, 17_180_300, 17_180_400]);
  assert.deepEqual(blockTicks(22, 521), [100, 200, 300, 400, 500]);
  // A young chain: whole blocks only, never "block 0.5".
  assert.deepEqual(blockTicks(0, 3), [0, 1, 2, 3]);
  assert.deepEqual(blockTicks(1, 9), [2, 4, 6, 8]);
  // A single block still gets its tick.
  assert.deepEqual(blockTicks(7, 7), [7]);
});

test("fee ticks: a round step, from at or below the lowest value (never below 0) to at or above the highest", () => {
  assert.deepEqual(feeTicks(58.42, 175.7), [50, 75, 100, 125, 150, 175, 200]);
  assert.deepEqual(feeTicks(0.1, 0.3), [0.1, 0.15, 0.2, 0.25, 0.3]);
  assert.deepEqual(feeTicks(0.000000001, 0.000000005), [1e-9, 2e-9, 3e-9, 4e-9, 5e-9]);
  // Every value equal (an L2 at its minimum base fee for hours): one step on each side, so that the axis has a span
  // and the line runs across its middle.
  assert.deepEqual(feeTicks(2, 2), [1.5, 2, 2.5]);
  assert.deepEqual(feeTicks(0.01, 0.01), [0.008, 0.01, 0.012]);
  assert.deepEqual(feeTicks(0, 0), [0, 0.2]);
  for (const [low, high] of [
    [0.37, 912.5],
    [14.58, 16.4],
    [3, 3.0000001],
  ] as const) {
    const ticks = feeTicks(low, high);
    assert.ok(ticks[0]! <= low && ticks[ticks.length - 1]! >= high && ticks[0]! >= 0, `${low}..${high}: ${ticks.join(" ")}`);
    assert.ok(ticks.length >= 3 && ticks.length <= 8, `${low}..${high}: ${ticks.length} ticks`);
  }
});
