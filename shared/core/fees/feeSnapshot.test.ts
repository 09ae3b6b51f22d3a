import assert from "node:assert/strict";
import { test } from "node:test";
import { BlockWindow } from "./blockWindow.ts";
import { DEFAULT_BLOCK_TIME_MS, snapshotOf } from "./feeSnapshot.ts";
import { blockTipsOf } from "./recentTips.ts";

test("no snapshot without data", () => {
  assert.equal(snapshotOf(1, new BlockWindow(500), undefined), undefined);
});

test("history is the newest 500 while statistics cover the whole window", () => {
  const window = new BlockWindow(1000);
  window.write(
    1n,
    Array.from({ length: 1000 }, (_, i) => BigInt(i + 1)),
  );
  const snapshot = snapshotOf(1, window, 2000n)!;
  assert.equal(snapshot.historyWei.length, 500);
  assert.equal(snapshot.historyWei[0], 501n);
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

test("the snapshot carries what suggestedGasFees needs: congestion, the recent tips and the block time", () => {
  const window = new BlockWindow(500);
  window.write(0n, [10n, 20n, 30n, 40n]);
  const tips = [blockTipsOf(3n, [1n, 2n, 3n])];
  const snapshot = snapshotOf(1, window, 30n, { recentTips: tips, blockTimeMs: 2000 })!;
  assert.equal(snapshot.networkCongestion, 0.625, "2 of 4 below 30, 1 equal");
  assert.deepEqual(snapshot.recentTips, tips);
  assert.ok(Object.isFrozen(snapshot.recentTips));
  assert.equal(snapshot.blockTimeMs, 2000);
  const plain = snapshotOf(1, window, undefined)!;
  assert.deepEqual(plain.recentTips, []);
  assert.equal(plain.blockTimeMs, DEFAULT_BLOCK_TIME_MS);
  assert.equal(plain.networkCongestion, 0.875, "the newest (40) is current: 3 below, 1 equal");
});
