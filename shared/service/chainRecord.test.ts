import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { MAX_HEADER_AHEAD_SECONDS } from "../core/history/blockAnchor.ts";
import { HistoryStore } from "../history/historyStore.ts";
import { silentLogger } from "../log/logger.ts";
import type { FeedReport } from "../rpc/feed/feedReport.ts";
import type { ChainPlan } from "./chainPlan.ts";
import { ChainRecord } from "./chainRecord.ts";
import { StoreWriter } from "./storeWriter.ts";

const PLAN: ChainPlan = { chainId: 1, name: "Ethereum", rpcUrls: [], blockTimeMs: 12_000, statsWindowBlocks: 500 };
const NOW_MS = 1_700_000_000_000;

function report(firstBlock: bigint, baseFeesWei: readonly bigint[], extra: Partial<FeedReport> = {}): FeedReport {
  return {
    chainId: 1,
    blocks: [{ firstBlock, baseFeesWei }],
    newestBlock: firstBlock + BigInt(baseFeesWei.length - 1),
    nextBaseFeeWei: undefined,
    nextBlobBaseFeeWei: undefined,
    recentTips: [],
    newDataAt: NOW_MS,
    phase: "ok",
    endpoints: [],
    changed: { blocks: true, health: false },
    anchors: [],
    callCounts: [],
    ...extra,
  };
}

test("the feed's blocks go into the history, and the snapshot is made of the history: statistics, current fee, the 500 newest", () => {
  const record = new ChainRecord(PLAN, { logger: silentLogger });
  const fees = Array.from({ length: 600 }, (_, i) => BigInt(i + 1));
  record.takeReport(report(1_000n, fees, { nextBaseFeeWei: 7n }), NOW_MS);
  const { snapshot } = record.part();
  assert.equal(snapshot!.newestBlock, 1_599n);
  assert.deepEqual(snapshot!.historyWei, fees.slice(100));
  // A 500-block window: nearest rank over blocks 1100..1599 (fees 101..600).
  assert.equal(snapshot!.baseFeePercentileWei, 350n);
  assert.equal(snapshot!.busyThresholdWei, 550n);
  assert.equal(snapshot!.currentBaseFeeWei, 7n, "the feed's next base fee, its newest block being the history's");
  assert.equal(record.part().snapshot, snapshot, "the same object while nothing changed");
});

test("an older page (the backfill) changes the history and, through it, the window; the feed's tip stays", () => {
  const record = new ChainRecord({ ...PLAN, statsWindowBlocks: 1_000 }, { logger: silentLogger });
  record.takeReport(
    report(
      1_000n,
      Array.from({ length: 500 }, () => 10n),
      { nextBaseFeeWei: 11n },
    ),
    NOW_MS,
  );
  const before = record.part().snapshot!;
  assert.equal(before.maxWei, 10n);
  record.writePage({ firstBlock: 500n, baseFeesWei: Array.from({ length: 500 }, () => 90n) }, NOW_MS);
  const after = record.part().snapshot!;
  assert.equal(after.maxWei, 90n);
  assert.equal(after.statsBlocks, 1_000);
  assert.equal(after.currentBaseFeeWei, 11n);
  assert.equal(after.newestBlock, 1_499n);
});

test("a header dated more than MAX_HEADER_AHEAD_SECONDS after the clock dates no block", () => {
  const record = new ChainRecord(PLAN, { logger: silentLogger });
  const nowSeconds = NOW_MS / 1_000;
  record.takeReport(report(1n, [1n], { anchors: [{ block: 1n, timestamp: nowSeconds - 1_200 }] }), NOW_MS);
  record.takeReport(
    report(
      2n,
      Array.from({ length: 99 }, () => 1n),
      { anchors: [{ block: 100n, timestamp: nowSeconds + 14 * 60 }] },
    ),
    NOW_MS,
  );
  const newest = record.history.newest!;
  assert.ok(newest.timestamp <= nowSeconds + MAX_HEADER_AHEAD_SECONDS, `block 100 is dated ${newest.timestamp - nowSeconds} s after the clock`);
  record.takeReport(report(101n, [1n], { anchors: [{ block: 101n, timestamp: nowSeconds + 60 }] }), NOW_MS);
  assert.equal(record.history.newest!.timestamp, nowSeconds + 60, "one within the allowance is believed");
});

test("blob fees: the feed's blob base fees go into the history and its store, and a restart on the same store answers the same blob statistics", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "gasfees-record-blobs-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "history.sqlite");
  const fees = Array.from({ length: 600 }, (_, i) => BigInt(1_000 + i));
  const blobFees = Array.from({ length: 600 }, (_, i) => BigInt(1 + ((i * 7_919) % 1_000)));
  const store = HistoryStore.open(file);
  const record = new ChainRecord(PLAN, { store: new StoreWriter(store, { logger: silentLogger }), logger: silentLogger });
  const anchors = [{ block: 1_599n, timestamp: NOW_MS / 1_000 }];
  record.takeReport(
    report(1_000n, fees, {
      nextBlobBaseFeeWei: 5n,
      anchors,
      blocks: [{ firstBlock: 1_000n, baseFeesWei: fees, blobBaseFeesWei: blobFees, gasUsedRatios: fees.map(() => 0.5), blobGasUsedRatios: fees.map(() => 1) }],
    }),
    NOW_MS,
  );
  const blob = record.part().snapshot!.blob!;
  const window = [...blobFees.slice(100)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  assert.equal(blob.percentileWei, window[Math.ceil(0.5 * 500) - 1]);
  assert.equal(blob.busyThresholdWei, window[Math.ceil(0.9 * 500) - 1]);
  assert.equal(blob.currentWei, 5n, "the feed's next blob base fee");
  assert.deepEqual(blob.historyWei, blobFees.slice(100));
  assert.deepEqual(new Set(blob.gasUsedRatios), new Set([1]));
  store.close();

  // A restart: the stored blob fees answer before the feed's first report (the next block's is then the newest's).
  const reopened = HistoryStore.open(file);
  t.after(() => reopened.close());
  const restarted = new ChainRecord(PLAN, { store: new StoreWriter(reopened, { logger: silentLogger }), logger: silentLogger });
  restarted.loadStored();
  const loaded = restarted.part().snapshot!.blob!;
  assert.equal(loaded.percentileWei, blob.percentileWei);
  assert.equal(loaded.busyThresholdWei, blob.busyThresholdWei);
  assert.deepEqual(loaded.historyWei, blob.historyWei);
  assert.equal(loaded.currentWei, blobFees.at(-1));
});

test("a rollup keeps no blob field, whatever the feed, a backfilled page or a store written before it was known as one carries", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "gasfees-record-rollup-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "history.sqlite");
  const fees = Array.from({ length: 600 }, (_, i) => BigInt(1_000 + i));
  const oneWei = fees.map(() => 1n);
  const blocks = { firstBlock: 1_000n, baseFeesWei: fees, blobBaseFeesWei: oneWei, blobGasUsedRatios: fees.map(() => 0.3) };
  // Written as a chain with a blob market (a store from before rollups were told apart)...
  const store = HistoryStore.open(file);
  const asBefore = new ChainRecord(
    { ...PLAN, chainId: 10, blobMarket: true },
    { store: new StoreWriter(store, { logger: silentLogger }), logger: silentLogger },
  );
  asBefore.takeReport(report(1_000n, fees, { chainId: 10, nextBlobBaseFeeWei: 1n, blocks: [blocks] }), NOW_MS);
  assert.ok(asBefore.part().snapshot!.blob, "a chain with a blob market keeps them");
  store.close();

  // ...then read back, and followed, as OP Mainnet (a rollup by default).
  const reopened = HistoryStore.open(file);
  t.after(() => reopened.close());
  const rollup = new ChainRecord({ ...PLAN, chainId: 10 }, { store: new StoreWriter(reopened, { logger: silentLogger }), logger: silentLogger });
  rollup.loadStored();
  assert.equal(rollup.part().snapshot!.blob, undefined, "none from the store");
  assert.equal(rollup.history.newestBlobFees(500).length, 0);
  rollup.takeReport(
    report(1_600n, [2_000n], { chainId: 10, nextBlobBaseFeeWei: 1n, blocks: [{ firstBlock: 1_600n, baseFeesWei: [2_000n], blobBaseFeesWei: [1n] }] }),
    NOW_MS,
  );
  rollup.writePage({ firstBlock: 400n, baseFeesWei: fees, blobBaseFeesWei: oneWei }, NOW_MS);
  const { snapshot } = rollup.part();
  assert.equal(snapshot!.newestBlock, 1_600n, "the base fees are kept");
  assert.equal(snapshot!.blob, undefined, "none from the feed or a page");
  assert.equal(rollup.history.newestBlobFees(500).length, 0);
});
