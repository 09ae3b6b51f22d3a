// The StoreWriter on a real history file whose write lock another connection holds (BEGIN EXCLUSIVE): writes fail
// fast and wait in order, the queue is bounded per chain (the oldest waiting writes go), and once the lock is released
// what waited reaches the file. test/integration/historyStoreTrouble.test.ts runs it in the service with a real second
// process and a full disk.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { waitFor } from "../../test/support/waitFor.ts";
import { HistoryStore } from "../history/historyStore.ts";
import { createLogger } from "../log/logger.ts";
import { MAX_UNSAVED_BLOCKS, STORE_BUSY_TIMEOUT_MS, StoreWriter } from "./storeWriter.ts";

const HALF = MAX_UNSAVED_BLOCKS / 2;
const fees = (count: number, seed: number) => BigUint64Array.from({ length: count }, (_, i) => BigInt(seed + i));

test("beyond MAX_UNSAVED_BLOCKS a chain's oldest waiting writes are dropped (and told once); another chain keeps its own; the rest reaches the file in order", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "gasfees-store-writer-")), "history.sqlite");
  const store = HistoryStore.open(file);
  // A write that meets the lock gives up after the short busy timeout rather than the store's default (how long that
  // takes is not a test's to say): the writer sets it on the store it is given.
  const busyTimeouts: number[] = [];
  const setBusyTimeout = store.setBusyTimeout.bind(store);
  store.setBusyTimeout = (ms) => {
    busyTimeouts.push(ms);
    setBusyTimeout(ms);
  };
  const lines: string[] = [];
  const writer = new StoreWriter(store, { logger: createLogger("info", (line) => lines.push(line)) });
  assert.deepEqual(busyTimeouts, [STORE_BUSY_TIMEOUT_MS]);
  const locker = new DatabaseSync(file);
  try {
    writer.write(1, 0n, { baseFeesWei: fees(10, 1) });
    locker.exec("BEGIN EXCLUSIVE");
    writer.write(1, 10n, { baseFeesWei: fees(HALF, 100) });
    writer.write(2, 0n, { baseFeesWei: fees(5, 7) });
    writer.write(1, 10n + BigInt(HALF), { baseFeesWei: fees(HALF, 200) });
    // The queue is full for chain 1: the next write pushes out its oldest one.
    writer.write(1, 10n + BigInt(2 * HALF), { baseFeesWei: fees(3, 300) });
    // A re-mined block waits behind the first write of it: written after it, it wins.
    writer.write(1, 10n + BigInt(2 * HALF), { baseFeesWei: [9n] });
    assert.deepEqual(
      { ...writer.health(1), since: null, state: null, problem: null },
      {
        state: null,
        problem: null,
        since: null,
        unsavedBlocks: HALF + 4,
        droppedBlocks: HALF,
      },
    );
    assert.equal(writer.health(2).unsavedBlocks, 5);
    assert.equal(writer.health(2).droppedBlocks, 0);
    assert.equal(lines.filter((line) => line.includes("the oldest are dropped")).length, 1, lines.join(""));
    locker.exec("COMMIT");
    await waitFor("the waiting writes to reach the file", () => writer.health(1).unsavedBlocks === 0 && writer.health(2).unsavedBlocks === 0);
    assert.deepEqual(
      store.heldRanges(1).map(({ fromBlock, toBlock }) => [fromBlock, toBlock]),
      [
        [0n, 9n],
        [10n + BigInt(HALF), 10n + BigInt(2 * HALF) + 2n],
      ],
      "the dropped write is missing, nothing else",
    );
    const newest = [...store.load(1, 10n + BigInt(2 * HALF))][0]!;
    assert.deepEqual([...newest.baseFeesWei], [9n, 301n, 302n]);
    assert.deepEqual(
      store.heldRanges(2).map(({ fromBlock, toBlock }) => [fromBlock, toBlock]),
      [[0n, 4n]],
    );
    assert.equal(writer.health(1).state, "ok");
  } finally {
    writer.stop();
    locker.close();
    store.close();
  }
});

test("hourly summaries the file does not take wait in order with the blocks, reach it once the lock is released, and are told at once", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "gasfees-store-writer-")), "history.sqlite");
  const store = HistoryStore.open(file);
  const writer = new StoreWriter(store, { logger: createLogger("info", () => {}) });
  const told: Array<[number, number[]]> = [];
  writer.onHourlySummaries((chainId, summaries) => told.push([chainId, summaries.map((summary) => summary.start)]));
  const summaryAt = (start: number, max: bigint) => ({ start, blocks: 300, sampled: false, min: 1n, p10: 2n, p50: 3n, p90: 4n, max, last: 3n });
  const locker = new DatabaseSync(file);
  try {
    writer.writeHourlySummaries(1, [summaryAt(0, 5n)]);
    assert.deepEqual(store.hourlySummaries(1), [summaryAt(0, 5n)], "written at once while the file takes writes");
    locker.exec("BEGIN EXCLUSIVE");
    writer.writeHourlySummaries(1, [summaryAt(3_600, 6n), summaryAt(7_200, 7n)]);
    writer.write(1, 0n, { baseFeesWei: fees(3, 1) });
    // The hour rebuilt after its first write waits behind it: written after it, it wins.
    writer.writeHourlySummaries(1, [summaryAt(3_600, 9n)]);
    assert.deepEqual(told, [
      [1, [0]],
      [1, [3_600, 7_200]],
      [1, [3_600]],
    ]);
    locker.exec("COMMIT");
    await waitFor("the waiting writes to reach the file", () => store.hourlySummaries(1).length === 3 && writer.health(1).unsavedBlocks === 0);
    assert.deepEqual(store.hourlySummaries(1), [summaryAt(0, 5n), summaryAt(3_600, 9n), summaryAt(7_200, 7n)]);
    assert.deepEqual(writer.loadHourlySummaries(1), store.hourlySummaries(1));
    writer.pruneHourlySummaries(1, 3_600);
    assert.deepEqual(
      store.hourlySummaries(1).map((summary) => summary.start),
      [3_600, 7_200],
    );
  } finally {
    writer.stop();
    locker.close();
    store.close();
  }
});
