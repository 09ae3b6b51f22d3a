// A chain's hourly summaries in its record: built from every block of each closed hour wholly held (exact against
// the blocks), rebuilt when an hour's blocks change, kept in the store and rebuilt after a restart where missing or
// built from fewer blocks, pruned after the summary horizon; the publication's array changes only with an hour.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { hourStartOf, type HourlySummary } from "../core/outlook/hourlySummary.ts";
import { summarizeHour } from "../core/outlook/summarizeHour.ts";
import { HistoryStore } from "../history/historyStore.ts";
import { silentLogger } from "../log/logger.ts";
import type { FeedReport } from "../rpc/feed/feedReport.ts";
import type { ChainPlan } from "./chainPlan.ts";
import { ChainRecord } from "./chainRecord.ts";
import { StoreWriter } from "./storeWriter.ts";

const PLAN: ChainPlan = { chainId: 1, name: "Ethereum", rpcUrls: [], blockTimeMs: 12_000, statsWindowBlocks: 500, reorgDepthBlocks: 8 };
/** Block FIRST is 7 minutes into an hour: its hour is not wholly held. */
const T0 = 1_767_225_600 + 420;
const FIRST = 20_000_000n;
const timeOf = (block: bigint) => T0 + 12 * Number(block - FIRST);
/** Fees that differ block to block and hour to hour (a saw with a slow drift). */
const feeOf = (block: bigint) => 10_000_000_000n + ((block * 7_919n) % 5_000_000_000n) + (block - FIRST) * 1_000_003n;

function report(firstBlock: bigint, count: number, fee: (block: bigint) => bigint = feeOf): FeedReport {
  const blocks = Array.from({ length: count }, (_, i) => firstBlock + BigInt(i));
  const newest = blocks[blocks.length - 1]!;
  return {
    chainId: 1,
    blocks: [{ firstBlock, baseFeesWei: blocks.map(fee) }],
    newestBlock: newest,
    nextBaseFeeWei: undefined,
    nextBlobBaseFeeWei: undefined,
    recentTips: [],
    newDataAt: timeOf(newest) * 1_000,
    phase: "ok",
    endpoints: [],
    changed: { blocks: true, health: false },
    // Every block's header seen: every time exact.
    anchors: blocks.map((block) => ({ block, timestamp: timeOf(block) })),
    callCounts: [],
  };
}

/** What the hour starting at `start` summarises to, from the blocks FIRST..newest with fees `fee`. */
function expectedHour(start: number, newest: bigint, fee: (block: bigint) => bigint = feeOf): HourlySummary {
  const fees: bigint[] = [];
  for (let block = FIRST; block <= newest; block++) if (hourStartOf(timeOf(block)) === start) fees.push(fee(block));
  return summarizeHour(start, fees);
}

const nowAt = (block: bigint) => timeOf(block) * 1_000;

test("each closed hour wholly held is summarised from every one of its blocks, exactly; the first hour (not wholly held) and the open one are not", () => {
  const record = new ChainRecord(PLAN, { logger: silentLogger });
  // 1,600 blocks: 5 h 20 min from 00:07; hours 1 to 4 are whole and closed, hour 5 is open (its end not reached).
  const newest = FIRST + 1_599n;
  for (let block = FIRST; block <= newest; block += 100n) record.takeReport(report(block, 100), nowAt(block + 99n));
  const hour0 = hourStartOf(T0);
  const summaries = record.part().hourlySummaries;
  assert.deepEqual(
    summaries.map((summary) => summary.start),
    [1, 2, 3, 4].map((hour) => hour0 + hour * 3_600),
  );
  for (const summary of summaries) assert.deepEqual(summary, expectedHour(summary.start, newest));
  assert.equal(summaries[0]!.blocks, 300);
  assert.equal(record.part().status.summaries.hours, 4);
  assert.equal(record.part().status.summaries.oldestStart, hour0 + 3_600);
  assert.equal(record.part().hourlySummaries, summaries, "the same array while no hour changed");
});

test("an hour closes only once the block the reorg depth below the head is past its end", () => {
  const record = new ChainRecord(PLAN, { logger: silentLogger });
  const hour1 = hourStartOf(T0) + 3_600;
  // The first block at or after hour 2's start, then 8 more: only then is hour 1 closed.
  let firstOfHour2 = FIRST;
  while (timeOf(firstOfHour2) < hour1 + 3_600) firstOfHour2++;
  record.takeReport(report(FIRST, Number(firstOfHour2 - FIRST) + 8), nowAt(firstOfHour2 + 7n));
  assert.deepEqual(record.part().hourlySummaries, []);
  record.takeReport(report(firstOfHour2 + 8n, 1), nowAt(firstOfHour2 + 8n));
  assert.deepEqual(record.part().hourlySummaries, [expectedHour(hour1, firstOfHour2 + 8n)]);
});

test("a re-mined block (or a lie's blocks fetched again) rebuilds its hour: a new array, the store's row replaced", () => {
  const file = join(mkdtempSync(join(tmpdir(), "gasfees-record-hours-")), "history.sqlite");
  const store = HistoryStore.open(file);
  const record = new ChainRecord(PLAN, { store: new StoreWriter(store, { logger: silentLogger }), logger: silentLogger });
  const newest = FIRST + 1_199n;
  record.takeReport(report(FIRST, 1_200), nowAt(newest));
  const before = record.part().hourlySummaries;
  const hour2 = hourStartOf(T0) + 2 * 3_600;
  assert.deepEqual(store.hourlySummaries(1), before);
  // A block of hour 2 supplied anew with a much higher fee (as chainBackfill writes an honest endpoint's page).
  let inHour2 = FIRST;
  while (timeOf(inHour2) < hour2 + 600) inHour2++;
  const changedFee = (block: bigint) => (block === inHour2 ? 99_000_000_000n : feeOf(block));
  record.writePage({ firstBlock: inHour2, baseFeesWei: [changedFee(inHour2)] }, nowAt(newest));
  const after = record.part().hourlySummaries;
  assert.notEqual(after, before);
  const rebuilt = after.find((summary) => summary.start === hour2)!;
  assert.deepEqual(rebuilt, expectedHour(hour2, newest, changedFee));
  assert.equal(rebuilt.max, 99_000_000_000n);
  assert.deepEqual(
    after.filter((summary) => summary.start !== hour2),
    before.filter((summary) => summary.start !== hour2),
  );
  assert.deepEqual(store.hourlySummaries(1), after);
  store.close();
});

test("after a restart, hours wholly held with no summary, or one of fewer blocks, are summarised; the others are read from the store", () => {
  const file = join(mkdtempSync(join(tmpdir(), "gasfees-record-hours-")), "history.sqlite");
  const store = HistoryStore.open(file);
  const record = new ChainRecord(PLAN, { store: new StoreWriter(store, { logger: silentLogger }), logger: silentLogger });
  const newest = FIRST + 1_199n;
  record.takeReport(report(FIRST, 1_200), nowAt(newest));
  const built = record.part().hourlySummaries;
  assert.equal(built.length, 3, "hours 1 to 3 of 00:07 to 04:07");
  const [hour1, hour2, hour3] = built as [HourlySummary, HourlySummary, HourlySummary];
  // The file lost hour 1's summary; hour 2's was a sample of a few blocks; an old hour beyond the blocks is kept.
  store.pruneHourlySummaries(1, hour2.start);
  const old = { ...hour1, start: hour1.start - 30 * 3_600, blocks: 3, sampled: true };
  store.writeHourlySummaries(1, [{ ...hour2, blocks: 5, sampled: true }, old]);
  store.close();

  const reopened = HistoryStore.open(file);
  const restarted = new ChainRecord(PLAN, { store: new StoreWriter(reopened, { logger: silentLogger }), logger: silentLogger });
  restarted.loadStored();
  assert.deepEqual(restarted.part().hourlySummaries, [old, hour1, hour2, hour3]);
  assert.deepEqual(reopened.hourlySummaries(1), [old, hour1, hour2, hour3]);
  reopened.close();
});

test("summaries older than the summary horizon (counted back from the newest block) are dropped, from memory and the file", () => {
  const file = join(mkdtempSync(join(tmpdir(), "gasfees-record-hours-")), "history.sqlite");
  const store = HistoryStore.open(file);
  const writer = new StoreWriter(store, { logger: silentLogger });
  const record = new ChainRecord({ ...PLAN, summaryHorizon: "10d" }, { store: writer, logger: silentLogger });
  const hour0 = hourStartOf(T0);
  const past = (daysBack: number): HourlySummary => ({
    start: hour0 - daysBack * 86_400,
    blocks: 1,
    sampled: true,
    min: 1n,
    p10: 1n,
    p50: 1n,
    p90: 1n,
    max: 1n,
    last: 1n,
  });
  writer.writeHourlySummaries(1, [past(11), past(9)]);
  assert.equal(record.takeHourlySummaries([past(11), past(9)]), true);
  assert.equal(record.takeHourlySummaries([past(9)]), false, "the same summary again changes nothing");
  record.takeReport(report(FIRST, 1_200), nowAt(FIRST + 1_199n));
  const starts = record.part().hourlySummaries.map((summary) => summary.start);
  assert.deepEqual(starts, [past(9).start, hour0 + 3_600, hour0 + 7_200, hour0 + 10_800]);
  assert.deepEqual(
    store.hourlySummaries(1).map((summary) => summary.start),
    starts,
  );
  store.close();
});
