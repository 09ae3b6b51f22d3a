import assert from "node:assert/strict";
import { test } from "node:test";
import { congestionFromRanks } from "./networkCongestion.ts";

test("network congestion: the current base fee's mid-rank in the window, 4 decimals", () => {
  // (below, at most, n): [1, 2, 3, 4] and 0, 5, 3; [7, 7, 7] and 7; [1, 2, 3] and 2; [1, 2, 4] and 3.
  assert.equal(congestionFromRanks(0, 0, 4), 0);
  assert.equal(congestionFromRanks(4, 4, 4), 1);
  assert.equal(congestionFromRanks(2, 3, 4), 0.625, "2 below, 1 equal: (2 + 0.5) / 4");
  assert.equal(congestionFromRanks(0, 3, 3), 0.5);
  assert.equal(congestionFromRanks(1, 2, 3), 0.5);
  assert.equal(congestionFromRanks(2, 2, 3), 0.6667, "2 of 3 below, rounded");
  assert.throws(() => congestionFromRanks(0, 0, 0), RangeError);
});
