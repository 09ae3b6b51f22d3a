import assert from "node:assert/strict";
import { test } from "node:test";
import { BlockWindow } from "./blockWindow.ts";
import { snapshotOf } from "./feeSnapshot.ts";

test("no snapshot without data", () => {
  assert.equal(snapshotOf(1, new BlockWindow(500), undefined), undefined);
});

test("history is the newest 500 while statistics cover the whole window", () => {
  const window = new BlockWindow(1000);
  window.write(1n, Array.from({ length: 1000 }, (_, i) => BigInt(i + 1)));
  const snapshot = snapshotOf(1, window, 2000n)!;
  assert.equal(snapshot.historyWei.length, 500);
  assert.equal(snapshot.historyWei[0], 501n);
  assert.equal(snapshot.statsBlocks, 1000);
  assert.equal(snapshot.baseFeePercentileWei, 500n);
  assert.equal(snapshot.busyThresholdWei, 900n);
  assert.equal(snapshot.minWei, 1n);
  assert.equal(snapshot.maxWei, 1000n);
  assert.equal(snapshot.newestBlock, 1000n);
  assert.equal(snapshot.currentBaseFeeWei, 2000n);
  assert.equal(snapshot.busy, true);
});

test("without the next block's fee the newest block's is current, and equal to the threshold is not busy", () => {
  const window = new BlockWindow(500);
  window.write(0n, [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 9n]);
  const snapshot = snapshotOf(1, window, undefined)!;
  assert.equal(snapshot.busyThresholdWei, 9n);
  assert.equal(snapshot.currentBaseFeeWei, 9n);
  assert.equal(snapshot.busy, false);
  assert.ok(Object.isFrozen(snapshot) && Object.isFrozen(snapshot.historyWei));
});
