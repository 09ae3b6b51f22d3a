import assert from "node:assert/strict";
import { test } from "node:test";
import { blockTipsOf } from "../fees/recentTips.ts";
import { ChainHistory } from "./chainHistory.ts";
import { parseWindowSpec } from "./duration.ts";
import { type ChainTip, snapshotOfHistory } from "./windowSnapshot.ts";

const YEAR = 365 * 86_400;
const NO_TIP: ChainTip = { newestBlock: undefined, nextBaseFeeWei: undefined, recentTips: [] };

/** A history whose statistics window is the newest `window` blocks, holding `fees` from `firstBlock` on (12 s apart). */
function historyOf(window: string, firstBlock: bigint, fees: readonly bigint[]): ChainHistory {
  const history = new ChainHistory({ window: parseWindowSpec(window)!, horizonSeconds: YEAR, blockTimeMs: 12_000 });
  const anchors = [firstBlock, firstBlock + BigInt(fees.length - 1)].map((block) => ({ block, timestamp: 1_700_000_000 + Number(block) * 12 }));
  history.write({ firstBlock, baseFeesWei: fees, anchors }, 0);
  return history;
}

test("no snapshot without data", () => {
  const history = new ChainHistory({ window: parseWindowSpec("500 blocks")!, horizonSeconds: YEAR, blockTimeMs: 12_000 });
  assert.equal(snapshotOfHistory(1, history, NO_TIP, 12_000), undefined);
});

test("history is the newest 500 while statistics cover the whole window", () => {
  const history = historyOf(
    "1000 blocks",
    1n,
    Array.from({ length: 1000 }, (_, i) => BigInt(i + 1)),
  );
  const snapshot = snapshotOfHistory(1, history, { newestBlock: 1000n, nextBaseFeeWei: 2000n, recentTips: [] }, 12_000)!;
  assert.equal(snapshot.historyWei.length, 500);
  assert.equal(snapshot.historyWei[0], 501n);
  assert.equal(snapshot.baseFeePercentileWei, 500n);
  assert.equal(snapshot.busyThresholdWei, 900n);
  assert.equal(snapshot.minWei, 1n);
  assert.equal(snapshot.maxWei, 1000n);
  assert.equal(snapshot.newestBlock, 1000n);
  assert.equal(snapshot.currentBaseFeeWei, 2000n);
  assert.equal(snapshot.busy, true);
  assert.deepEqual([snapshot.statsBlocks, snapshot.statsFromBlock, snapshot.statsToBlock], [1000, 1n, 1000n]);
});

test("without the next block's fee the newest block's is current, and equal to the threshold is not busy", () => {
  const history = historyOf("500 blocks", 0n, [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 9n]);
  const snapshot = snapshotOfHistory(1, history, NO_TIP, 12_000)!;
  assert.equal(snapshot.busyThresholdWei, 9n);
  assert.equal(snapshot.currentBaseFeeWei, 9n);
  assert.equal(snapshot.busy, false);
  assert.ok(Object.isFrozen(snapshot) && Object.isFrozen(snapshot.historyWei));
});

test("the next block's fee is current only while the feed's newest block is the history's newest", () => {
  const history = historyOf("500 blocks", 0n, [10n, 20n, 30n, 40n]);
  assert.equal(snapshotOfHistory(1, history, { newestBlock: 3n, nextBaseFeeWei: 35n, recentTips: [] }, 12_000)!.currentBaseFeeWei, 35n);
  assert.equal(snapshotOfHistory(1, history, { newestBlock: 2n, nextBaseFeeWei: 35n, recentTips: [] }, 12_000)!.currentBaseFeeWei, 40n);
});

test("the snapshot carries what suggestedGasFees needs: congestion, the recent tips and the block time", () => {
  const history = historyOf("500 blocks", 0n, [10n, 20n, 30n, 40n]);
  const tips = [blockTipsOf(3n, [1n, 2n, 3n])];
  const snapshot = snapshotOfHistory(1, history, { newestBlock: 3n, nextBaseFeeWei: 30n, recentTips: tips }, 2000)!;
  assert.equal(snapshot.networkCongestion, 0.625, "2 of 4 below 30, 1 equal");
  assert.deepEqual(snapshot.recentTips, tips);
  assert.equal(snapshot.blockTimeMs, 2000);
  const plain = snapshotOfHistory(1, history, NO_TIP, 12_000)!;
  assert.deepEqual(plain.recentTips, []);
  assert.equal(plain.networkCongestion, 0.875, "the newest (40) is current: 3 below, 1 equal");
});
