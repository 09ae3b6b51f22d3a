import assert from "node:assert/strict";
import { test } from "node:test";
import { nearestRank, nearestRankIndex } from "./percentile.ts";

test("nearest rank picks sorted[ceil(q/100 * N) - 1]", () => {
  assert.equal(nearestRankIndex(500, 50), 249);
  assert.equal(nearestRankIndex(500, 90), 449);
  assert.equal(nearestRankIndex(1, 50), 0);
  assert.equal(nearestRankIndex(1, 90), 0);
  assert.equal(nearestRankIndex(3, 50), 1);
  assert.equal(nearestRankIndex(10, 90), 8);
  assert.equal(nearestRankIndex(11, 90), 9);
  assert.equal(nearestRankIndex(7, 100), 6);
});

test("the percentile is a value that occurred, and 50% of values are at or below it", () => {
  const sorted = [5n, 1n, 9n, 3n, 7n, 2n].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  assert.equal(nearestRank(sorted, 50), 3n);
  assert.equal(nearestRank(sorted, 90), 9n);
  for (const count of [1, 2, 3, 10, 499, 500, 501, 7200]) {
    const values = Array.from({ length: count }, (_, i) => BigInt(i));
    const p50 = nearestRank(values, 50);
    assert.ok(values.filter((v) => v <= p50).length * 2 >= count, `p50 covers half of ${count}`);
    assert.ok(values.filter((v) => v < p50).length * 2 < count, `p50 is the smallest such value of ${count}`);
  }
});

test("percentiles outside 1..100 and empty inputs are refused with a clear message", () => {
  assert.throws(() => nearestRankIndex(0, 50), /at least one value/);
  assert.throws(() => nearestRankIndex(10, 0), /1 to 100/);
  assert.throws(() => nearestRankIndex(10, 50.5), /whole number/);
});
