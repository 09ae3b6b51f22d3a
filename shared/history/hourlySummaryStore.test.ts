// The hourly summaries in the history file: exact round trip (fees of any size), replace by hour, ranges, prune, a file
// from before the summaries, and rows that are not what the store writes.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import type { HourlySummary } from "../core/outlook/hourlySummary.ts";
import { HistoryStore } from "./historyStore.ts";
import { HistoryStoreInputError } from "./historyStoreErrors.ts";
import { MAX_SUMMARY_FEE_WEI } from "./hourlySummaryStore.ts";

const temporaryFile = () => join(mkdtempSync(join(tmpdir(), "gasfees-hours-")), "history.sqlite");
const H0 = 1_767_225_600; // 2026-01-01T00:00Z

const summaryAt = (hour: number, overrides: Partial<HourlySummary> = {}): HourlySummary => ({
  start: H0 + hour * 3_600,
  blocks: 300,
  sampled: false,
  min: 7_000_000_001n + BigInt(hour),
  p10: 7_500_000_003n,
  p50: 9_123_456_789n,
  p90: 15_000_000_000n,
  max: 40_000_000_007n,
  last: 8_888_888_888n,
  ...overrides,
});

test("summaries outlive the store exactly, fees beyond 2^63 included; each hour's newest write replaces the one held", () => {
  const file = temporaryFile();
  const store = HistoryStore.open(file);
  assert.deepEqual(store.hourlySummaries(1), []);
  const huge = summaryAt(2, { min: 2n ** 64n + 1n, p10: 2n ** 70n, p50: 2n ** 100n, p90: 2n ** 200n, max: MAX_SUMMARY_FEE_WEI, last: 2n ** 64n + 1n });
  store.writeHourlySummaries(1, [summaryAt(1), huge, summaryAt(0, { sampled: true, blocks: 1, min: 0n, p10: 0n, p50: 0n, last: 0n })]);
  store.writeHourlySummaries(10, [summaryAt(1, { blocks: 14_400 })]);
  // A re-mined block changed hour 1: written again, it replaces the one held.
  store.writeHourlySummaries(1, [summaryAt(1, { max: 41_000_000_000n, blocks: 301 })]);
  store.close();

  const reopened = HistoryStore.open(file);
  assert.deepEqual(reopened.hourlySummaries(1), [
    summaryAt(0, { sampled: true, blocks: 1, min: 0n, p10: 0n, p50: 0n, last: 0n }),
    summaryAt(1, { max: 41_000_000_000n, blocks: 301 }),
    huge,
  ]);
  assert.deepEqual(reopened.hourlySummaries(10), [summaryAt(1, { blocks: 14_400 })]);
  // Ranges by start, both ends included.
  assert.deepEqual(
    reopened.hourlySummaries(1, H0 + 3_600, H0 + 7_200).map((summary) => summary.start),
    [H0 + 3_600, H0 + 7_200],
  );
  assert.deepEqual(
    reopened.hourlySummaries(1, H0 + 3_601).map((summary) => summary.start),
    [H0 + 7_200],
  );
  assert.deepEqual(
    reopened.hourlySummaries(1, undefined, H0).map((summary) => summary.start),
    [H0],
  );
  assert.deepEqual(reopened.hourlySummaries(1, H0 + 7_200, H0), []);
  reopened.close();
});

test("prune drops the hours before its bound, of that chain only", () => {
  const store = HistoryStore.open(temporaryFile());
  assert.equal(store.pruneHourlySummaries(1, H0 + 10 * 3_600), 0);
  store.writeHourlySummaries(
    1,
    Array.from({ length: 5 }, (_, hour) => summaryAt(hour)),
  );
  store.writeHourlySummaries(2, [summaryAt(0)]);
  assert.equal(store.pruneHourlySummaries(1, H0 + 2 * 3_600), 2);
  assert.deepEqual(
    store.hourlySummaries(1).map((summary) => summary.start),
    [2, 3, 4].map((hour) => H0 + hour * 3_600),
  );
  assert.equal(store.hourlySummaries(2).length, 1);
  store.close();
});

test("a history file from before the summaries gets their table on the first write, its blocks untouched", () => {
  const file = temporaryFile();
  const store = HistoryStore.open(file);
  store.write(1, 100n, { baseFeesWei: [5n, 6n, 7n] });
  store.close();
  // The file as an older gasfees left it: no hours_ table.
  const raw = new DatabaseSync(file);
  assert.equal(raw.prepare("SELECT count(*) AS tables FROM sqlite_schema WHERE name LIKE 'hours_%'").get()?.tables, 0);
  raw.close();

  const reopened = HistoryStore.open(file);
  assert.deepEqual(reopened.hourlySummaries(1), []);
  assert.equal(reopened.pruneHourlySummaries(1, H0), 0);
  reopened.writeHourlySummaries(1, [summaryAt(0)]);
  assert.deepEqual(reopened.hourlySummaries(1), [summaryAt(0)]);
  assert.deepEqual(
    [...reopened.load(1)].map((run) => [...run.baseFeesWei]),
    [[5n, 6n, 7n]],
  );
  reopened.close();
});

test("a write with one bad summary is refused whole, saying why; bad bounds are refused", () => {
  const store = HistoryStore.open(temporaryFile());
  const refused = (summaries: HourlySummary[], pattern: RegExp) =>
    assert.throws(
      () => store.writeHourlySummaries(1, summaries),
      (error: unknown) => error instanceof HistoryStoreInputError && pattern.test(error.message),
    );
  refused([summaryAt(0), summaryAt(1, { start: H0 + 1 })], /not the start of an hour/);
  refused([summaryAt(0), summaryAt(1, { blocks: 0 })], /blocks 0/);
  refused([summaryAt(0, { min: -1n, p10: 0n })], /min -1 is not a fee/);
  refused([summaryAt(0, { max: MAX_SUMMARY_FEE_WEI + 1n })], /max .* is not a fee/);
  refused([summaryAt(0, { p10: 2n ** 60n })], /not in order/);
  refused([summaryAt(0, { last: 1n })], /last fee is not between/);
  refused([summaryAt(0), summaryAt(0)], /given twice/);
  assert.deepEqual(store.hourlySummaries(1), []);
  assert.throws(() => store.hourlySummaries(1, -3_600), /fromStart -3600 is not a time/);
  assert.throws(() => store.pruneHourlySummaries(1, 1.5), /beforeStart 1.5 is not a time/);
  assert.throws(() => store.writeHourlySummaries(0, []), /chain id 0/);
  store.close();
});

test("a row that is not what the store writes (edited by hand, damaged) is left out, the others read", () => {
  const file = temporaryFile();
  const store = HistoryStore.open(file);
  store.writeHourlySummaries(
    1,
    Array.from({ length: 6 }, (_, hour) => summaryAt(hour)),
  );
  const raw = new DatabaseSync(file);
  raw.exec(`UPDATE hours_1 SET p50_wei = '12abc' WHERE start = ${H0}`);
  raw.exec(`UPDATE hours_1 SET max_wei = '${(MAX_SUMMARY_FEE_WEI + 1n).toString()}' WHERE start = ${H0 + 3_600}`);
  raw.exec(`UPDATE hours_1 SET p10_wei = '1' WHERE start = ${H0 + 2 * 3_600}`);
  raw.exec(`UPDATE hours_1 SET sampled = 2 WHERE start = ${H0 + 3 * 3_600}`);
  raw.exec(`UPDATE hours_1 SET blocks = 0 WHERE start = ${H0 + 4 * 3_600}`);
  raw.close();
  assert.deepEqual(store.hourlySummaries(1), [summaryAt(5)]);
  store.close();
});
