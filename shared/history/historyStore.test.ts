import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { HistoryStore, type BlockAnchor, type StoredRun } from "./historyStore.ts";
import {
  HistoryStoreCorruptError,
  HistoryStoreError,
  HistoryStoreForeignFileError,
  HistoryStoreInputError,
  HistoryStoreNewerSchemaError,
  HistoryStoreUnavailableError,
} from "./historyStoreErrors.ts";
import { MAX_RUN_BLOCKS } from "./storeRunBuilder.ts";

const temporaryFile = () => join(mkdtempSync(join(tmpdir(), "gasfees-history-")), "history.sqlite");
const MAX_FEE = 2n ** 63n - 1n;

/** A fee that differs per block and per `variant`, across the whole range of widths. */
const feeOf = (block: number, variant = 0) => (BigInt(block) * 1_000_003n + BigInt(variant) * 7n) % (MAX_FEE + 1n);
const fees = (first: number, count: number, variant = 0) => Array.from({ length: count }, (_, i) => feeOf(first + i, variant));

/** Every held block of a chain as [block, fee] pairs, read back through load. */
function heldFees(store: HistoryStore, chainId: number, from?: bigint, to?: bigint): Array<[number, bigint]> {
  const pairs: Array<[number, bigint]> = [];
  for (const run of store.load(chainId, from, to)) run.baseFeesWei.forEach((fee, i) => pairs.push([Number(run.firstBlock) + i, fee]));
  return pairs;
}

const runsOf = (store: HistoryStore, chainId: number, from?: bigint, to?: bigint): StoredRun[] => [...store.load(chainId, from, to)];
const shapeOf = (runs: readonly StoredRun[]) => runs.map((run) => [run.firstBlock, run.baseFeesWei.length]);

test("a write reads back exactly: fees to the wei (0 to 2^63 - 1), ratios to 1/10,000, blob fees, anchors", () => {
  const store = HistoryStore.open(temporaryFile());
  const first = 17_180_001; // not on a chunk boundary
  const count = 3_000;
  const baseFeesWei = fees(first, count);
  baseFeesWei[0] = 0n;
  baseFeesWei[1] = MAX_FEE;
  const gasUsedRatios = Array.from({ length: count }, (_, i) => (i % 10_001) / 10_000);
  gasUsedRatios[2] = 6.5534;
  const blobBaseFeesWei = Array.from({ length: count }, (_, i) => (i === 3 ? MAX_FEE : BigInt(i % 300)));
  const anchors: BlockAnchor[] = [
    { block: BigInt(first + count - 1), timestamp: 2 ** 32 - 1 },
    { block: BigInt(first), timestamp: 0 },
    { block: BigInt(first + 1_500), timestamp: 1_683_121_751 },
  ];
  store.write(1, BigInt(first), { baseFeesWei, gasUsedRatios, blobBaseFeesWei, anchors });
  const runs = runsOf(store, 1);
  assert.deepEqual(shapeOf(runs), [[BigInt(first), count]]);
  const [run] = runs as [StoredRun];
  assert.deepEqual([...run.baseFeesWei], baseFeesWei);
  assert.deepEqual([...run.gasUsedRatios], gasUsedRatios);
  assert.deepEqual([...run.blobBaseFeesWei], blobBaseFeesWei);
  assert.deepEqual(
    run.anchors,
    [...anchors].sort((a, b) => Number(a.block - b.block)),
  );
  store.close();
});

test("a write without ratios, blob fees or anchors reads back with them unknown", () => {
  const store = HistoryStore.open(temporaryFile());
  store.write(8453, 100n, { baseFeesWei: fees(100, 10) });
  const [run] = runsOf(store, 8453) as [StoredRun];
  assert.deepEqual([...run.baseFeesWei], fees(100, 10));
  assert.ok(run.gasUsedRatios.every(Number.isNaN));
  assert.deepEqual([...run.blobBaseFeesWei], Array<bigint>(10).fill(-1n));
  assert.deepEqual(run.anchors, []);
  store.close();
});

test("chains are kept apart, and a chain never written holds nothing", () => {
  const store = HistoryStore.open(temporaryFile());
  store.write(1, 1_000n, { baseFeesWei: fees(1_000, 100, 1) });
  store.write(42161, 1_000n, { baseFeesWei: fees(1_000, 50, 2) });
  assert.deepEqual(
    heldFees(store, 1).map(([, fee]) => fee),
    fees(1_000, 100, 1),
  );
  assert.deepEqual(
    heldFees(store, 42161).map(([, fee]) => fee),
    fees(1_000, 50, 2),
  );
  assert.deepEqual(runsOf(store, 10), []);
  assert.deepEqual(store.heldRanges(10), []);
  assert.equal(store.prune(10, 5_000n), 0);
  assert.deepEqual(store.chainIds(), [1, 42161]);
  store.close();
});

test("runs end at gaps and at 65,536 blocks; a range loads exactly its blocks, inside chunks too", () => {
  const store = HistoryStore.open(temporaryFile());
  const pageBlocks = 1_024;
  // 70,000 consecutive blocks from 5 (in pages, newest first like a backfill), a gap, then 10 more.
  for (let first = 5 + 70_000 - pageBlocks; first > 5 - pageBlocks; first -= pageBlocks) {
    const from = Math.max(first, 5);
    store.write(1, BigInt(from), { baseFeesWei: fees(from, first + pageBlocks - from) });
  }
  store.write(1, 70_100n, { baseFeesWei: fees(70_100, 10) });
  assert.deepEqual(shapeOf(runsOf(store, 1)), [
    [5n, MAX_RUN_BLOCKS],
    [BigInt(5 + MAX_RUN_BLOCKS), 70_000 - MAX_RUN_BLOCKS],
    [70_100n, 10],
  ]);
  const all = heldFees(store, 1);
  assert.equal(all.length, 70_010);
  assert.ok(all.every(([block, fee]) => fee === feeOf(block)));
  const expectBetween = (from: number, to: number) =>
    assert.deepEqual(
      heldFees(store, 1, BigInt(from), BigInt(to)),
      all.filter(([block]) => block >= from && block <= to),
      `blocks ${from} to ${to}`,
    );
  expectBetween(0, 4);
  expectBetween(0, 5);
  expectBetween(63, 64);
  expectBetween(100, 100);
  expectBetween(1_000, 66_000);
  expectBetween(69_990, 70_105);
  expectBetween(70_109, 2 ** 53 - 1);
  expectBetween(70_110, 80_000);
  assert.deepEqual(runsOf(store, 1, 10n, 9n), []);
  store.close();
});

test("a loaded run's arrays are the caller's: a later run or write does not change them", () => {
  const store = HistoryStore.open(temporaryFile());
  store.write(1, 0n, { baseFeesWei: fees(0, 2 * MAX_RUN_BLOCKS) });
  const [firstRun, secondRun] = runsOf(store, 1) as [StoredRun, StoredRun];
  store.write(1, 0n, { baseFeesWei: fees(0, 100, 9) });
  assert.equal(firstRun.baseFeesWei[0], feeOf(0));
  assert.equal(secondRun.baseFeesWei[0], feeOf(MAX_RUN_BLOCKS));
  assert.notEqual(firstRun.baseFeesWei.buffer, secondRun.baseFeesWei.buffer);
  store.close();
});

test("a re-mined block replaces the held one; the fields a write leaves out keep their held values", () => {
  const store = HistoryStore.open(temporaryFile());
  store.write(1, 200n, {
    baseFeesWei: fees(200, 10),
    gasUsedRatios: Array<number>(10).fill(0.25),
    blobBaseFeesWei: Array<bigint>(10).fill(3n),
    anchors: [
      { block: 200n, timestamp: 1_000 },
      { block: 205n, timestamp: 1_060 },
    ],
  });
  // Blocks 204-206 re-mined: new fees and an anchor for 206; no ratios, no blob fees, no anchor for 205.
  store.write(1, 204n, { baseFeesWei: fees(204, 3, 5), anchors: [{ block: 206n, timestamp: 1_080 }] });
  // Block 209 re-mined with a new ratio and blob fee.
  store.write(1, 209n, { baseFeesWei: [feeOf(209, 6)], gasUsedRatios: [1], blobBaseFeesWei: [9n] });
  const [run] = runsOf(store, 1) as [StoredRun];
  assert.deepEqual([...run.baseFeesWei], [...fees(200, 4), ...fees(204, 3, 5), ...fees(207, 2), feeOf(209, 6)]);
  assert.deepEqual([...run.gasUsedRatios], [...Array<number>(9).fill(0.25), 1]);
  assert.deepEqual([...run.blobBaseFeesWei], [...Array<bigint>(9).fill(3n), 9n]);
  assert.deepEqual(run.anchors, [
    { block: 200n, timestamp: 1_000 },
    { block: 205n, timestamp: 1_060 },
    { block: 206n, timestamp: 1_080 },
  ]);
  store.close();
});

test("held ranges: the stretches of consecutive blocks, across partial chunks and gaps of one block", () => {
  const store = HistoryStore.open(temporaryFile());
  const write = (from: number, to: number) => store.write(1, BigInt(from), { baseFeesWei: fees(from, to - from + 1) });
  write(10, 20);
  write(22, 22);
  write(63, 200);
  write(256, 511); // whole chunks
  write(512, 512);
  write(1_000_000, 1_000_063);
  write(2 ** 53 - 3, 2 ** 53 - 1);
  assert.deepEqual(
    store.heldRanges(1).map(({ fromBlock, toBlock }) => [fromBlock, toBlock]),
    [
      [10n, 20n],
      [22n, 22n],
      [63n, 200n],
      [256n, 512n],
      [1_000_000n, 1_000_063n],
      [2n ** 53n - 3n, 2n ** 53n - 1n],
    ],
  );
  write(21, 21);
  write(23, 62);
  write(201, 255);
  assert.deepEqual(
    store.heldRanges(1).map(({ fromBlock, toBlock }) => [fromBlock, toBlock]),
    [
      [10n, 512n],
      [1_000_000n, 1_000_063n],
      [2n ** 53n - 3n, 2n ** 53n - 1n],
    ],
  );
  store.close();
});

test("prune drops exactly the blocks before its bound, counts them, and keeps everything after", () => {
  const store = HistoryStore.open(temporaryFile());
  store.write(1, 100n, { baseFeesWei: fees(100, 1_000), anchors: [{ block: 150n, timestamp: 5 }] });
  store.write(1, 2_000n, { baseFeesWei: fees(2_000, 10) });
  assert.equal(store.prune(1, 100n), 0);
  assert.equal(store.prune(1, 130n), 30); // inside a chunk
  assert.equal(store.prune(1, 130n), 0);
  assert.equal(store.prune(1, 192n), 62); // on a chunk boundary
  assert.equal(store.prune(1, 1_500n), 1_100 - 192);
  assert.deepEqual(
    store.heldRanges(1).map(({ fromBlock, toBlock }) => [fromBlock, toBlock]),
    [[2_000n, 2_009n]],
  );
  assert.deepEqual(
    heldFees(store, 1),
    fees(2_000, 10).map((fee, i) => [2_000 + i, fee]),
  );
  assert.equal(store.prune(1, 2_005n), 5);
  assert.equal(store.prune(1, 2n ** 53n - 1n), 5);
  assert.deepEqual(runsOf(store, 1), []);
  // Pruned chunks leave no record behind.
  const db = new DatabaseSync(store.file);
  assert.deepEqual(
    { ...db.prepare("SELECT (SELECT count(*) FROM chunks_1) AS chunks, (SELECT count(*) FROM records_1) AS records").get() },
    { chunks: 0, records: 0 },
  );
  db.close();
  store.close();
});

test("the history outlives the store: a reopened file holds what was written, and two stores on one file see each other's writes", () => {
  const file = temporaryFile();
  const first = HistoryStore.open(file);
  first.write(1, 0n, { baseFeesWei: fees(0, 5_000) });
  const second = HistoryStore.open(file);
  assert.equal(heldFees(second, 1).length, 5_000);
  second.write(1, 5_000n, { baseFeesWei: fees(5_000, 100) });
  assert.deepEqual(
    first.heldRanges(1).map(({ fromBlock, toBlock }) => [fromBlock, toBlock]),
    [[0n, 5_099n]],
  );
  first.close();
  second.close();
  const reopened = HistoryStore.open(file);
  assert.deepEqual(
    heldFees(reopened, 1),
    fees(0, 5_100).map((fee, i) => [i, fee]),
  );
  reopened.close();
});

test(
  "the file and its -wal and -shm files are readable by their owner only",
  { skip: process.platform === "win32" ? "file modes are POSIX only" : false },
  () => {
    const file = temporaryFile();
    const store = HistoryStore.open(file);
    store.write(1, 0n, { baseFeesWei: fees(0, 10) });
    for (const path of [file, `${file}-wal`, `${file}-shm`]) assert.equal(statSync(path).mode & 0o777, 0o600, path);
    store.close();
  },
);

test("a load reads page by page: between two runs it holds no read open, so another process's checkpoint completes", () => {
  const file = temporaryFile();
  const store = HistoryStore.open(file);
  store.write(1, 0n, { baseFeesWei: fees(0, 200_000) });
  const runs = store.load(1)[Symbol.iterator]();
  const firstRun = runs.next();
  assert.ok(firstRun.done !== true);
  assert.equal(firstRun.value.baseFeesWei.length, MAX_RUN_BLOCKS);
  const other = new DatabaseSync(file);
  other.exec("INSERT INTO chains (chain_id) VALUES (7)");
  // A reader holding its snapshot would make this checkpoint report busy = 1 and leave the log in place.
  assert.deepEqual({ ...other.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get() }, { busy: 0, log: 0, checkpointed: 0 });
  other.close();
  let blocks = MAX_RUN_BLOCKS;
  for (let next = runs.next(); !next.done; next = runs.next()) blocks += next.value.baseFeesWei.length;
  assert.equal(blocks, 200_000);
  store.close();
});

test("calls beyond the bounds are refused before anything is written", () => {
  const store = HistoryStore.open(temporaryFile());
  store.write(1, 1_000n, { baseFeesWei: fees(1_000, 10) });
  const refused: Array<[string, () => unknown, RegExp]> = [
    ["chain id 0", () => store.write(0, 1n, { baseFeesWei: [1n] }), /chain id 0 is not a positive whole number/],
    ["a negative chain id", () => store.load(-1), /chain id -1/],
    ["a fractional chain id", () => store.heldRanges(1.5), /chain id 1.5/],
    ["a chain id beyond 2^53", () => store.prune(2 ** 53, 1n), /chain id/],
    ["a negative block", () => store.write(1, -1n, { baseFeesWei: [1n] }), /first block -1 is not a block number/],
    ["a block number as a JS number", () => store.write(1, 5 as unknown as bigint, { baseFeesWei: [1n] }), /first block 5 is not a block number/],
    ["blocks reaching 2^53", () => store.write(1, 2n ** 53n - 1n, { baseFeesWei: [1n, 2n] }), /go beyond block 2\^53 - 1/],
    ["a load bound at 2^53", () => store.load(1, 0n, 2n ** 53n), /toBlock 9007199254740992 is not a block number/],
    ["a prune bound below 0", () => store.prune(1, -5n), /beforeBlock -5/],
    ["a fee of 2^63 wei", () => store.write(1, 1_000n, { baseFeesWei: [1n, 2n ** 63n] }), /base fee 9223372036854775808 \(block index 1\)/],
    ["a negative fee", () => store.write(1, 1_000n, { baseFeesWei: [-1n] }), /base fee -1/],
    ["a fee as a JS number", () => store.write(1, 1_000n, { baseFeesWei: [5 as unknown as bigint] }), /base fee 5/],
    ["a blob fee of 2^63 wei", () => store.write(1, 1_000n, { baseFeesWei: [1n], blobBaseFeesWei: [2n ** 63n] }), /blob base fee/],
    ["too few blob fees", () => store.write(1, 1_000n, { baseFeesWei: [1n, 2n], blobBaseFeesWei: [1n] }), /1 blob base fees for 2 blocks/],
    ["too many ratios", () => store.write(1, 1_000n, { baseFeesWei: [1n], gasUsedRatios: [0.5, 0.5] }), /2 gas-used ratios for 1 blocks/],
    ["a NaN ratio", () => store.write(1, 1_000n, { baseFeesWei: [1n], gasUsedRatios: [Number.NaN] }), /gas-used ratio NaN/],
    ["a negative ratio", () => store.write(1, 1_000n, { baseFeesWei: [1n], gasUsedRatios: [-0.1] }), /gas-used ratio -0.1/],
    ["a ratio too large to keep", () => store.write(1, 1_000n, { baseFeesWei: [1n], gasUsedRatios: [6.6] }), /gas-used ratio 6.6 is not from 0 to 6.5534/],
    [
      "an anchor outside the blocks",
      () => store.write(1, 1_000n, { baseFeesWei: [1n], anchors: [{ block: 1_001n, timestamp: 5 }] }),
      /anchor block 1001 is outside/,
    ],
    [
      "an anchor twice",
      () =>
        store.write(1, 1_000n, {
          baseFeesWei: [1n, 2n],
          anchors: [
            { block: 1_000n, timestamp: 5 },
            { block: 1_000n, timestamp: 5 },
          ],
        }),
      /anchored twice/,
    ],
    ["a fractional timestamp", () => store.write(1, 1_000n, { baseFeesWei: [1n], anchors: [{ block: 1_000n, timestamp: 1.5 }] }), /timestamp 1.5/],
    [
      "a timestamp in milliseconds",
      () => store.write(1, 1_000n, { baseFeesWei: [1n], anchors: [{ block: 1_000n, timestamp: 1_700_000_000_000 }] }),
      /timestamp 1700000000000/,
    ],
    ["a negative timestamp", () => store.write(1, 1_000n, { baseFeesWei: [1n], anchors: [{ block: 1_000n, timestamp: -1 }] }), /timestamp -1/],
    [
      "too many blocks at once",
      () => store.write(1, 0n, { baseFeesWei: new BigUint64Array(262_145) }),
      /262145 blocks in one write, more than 262144: write them in pages/,
    ],
  ];
  for (const [what, call, message] of refused) {
    assert.throws(
      call,
      (error: unknown) => error instanceof HistoryStoreInputError && message.test(error.message) && /Nothing was written/.test(error.message),
      what,
    );
  }
  assert.deepEqual(
    heldFees(store, 1),
    fees(1_000, 10).map((fee, i) => [1_000 + i, fee]),
  );
  assert.deepEqual(store.chainIds(), [1]);
  store.write(1, 5_000n, { baseFeesWei: [] }); // nothing to write is not an error
  store.close();
  assert.throws(
    () => store.heldRanges(1),
    (error: unknown) => error instanceof HistoryStoreError && /is closed: open it again/.test(error.message),
  );
  store.close(); // closing twice does nothing
});

test("a file that is not a database is refused as damaged, naming the file and saying to move it aside", () => {
  const file = temporaryFile();
  writeFileSync(file, "x".repeat(4096));
  assert.throws(
    () => HistoryStore.open(file),
    (error: unknown) =>
      error instanceof HistoryStoreCorruptError && error.file === file && error.message.includes(file) && /move the file aside/.test(error.message),
  );
  assert.equal(readFileSync(file, "utf8"), "x".repeat(4096));
});

test("a file from a newer gasfees is refused, saying which schema and what to do", () => {
  const file = temporaryFile();
  HistoryStore.open(file).close();
  const db = new DatabaseSync(file);
  db.exec("PRAGMA user_version = 2");
  db.close();
  assert.throws(
    () => HistoryStore.open(file),
    (error: unknown) =>
      error instanceof HistoryStoreNewerSchemaError &&
      error.fileSchemaVersion === 2 &&
      error.message.includes(file) &&
      /update gasfees, or move the file aside/.test(error.message),
  );
});

test("another application's SQLite database is refused and left untouched", () => {
  const file = temporaryFile();
  const db = new DatabaseSync(file);
  db.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')");
  db.close();
  const before = readFileSync(file);
  assert.throws(
    () => HistoryStore.open(file),
    (error: unknown) => error instanceof HistoryStoreForeignFileError && /not a gasfees history \(it holds 1 tables/.test(error.message),
  );
  assert.deepEqual(readFileSync(file), before);
  const marked = new DatabaseSync(file);
  marked.exec("PRAGMA application_id = 42");
  marked.close();
  assert.throws(
    () => HistoryStore.open(file),
    (error: unknown) => error instanceof HistoryStoreForeignFileError && /application id is 0x2a/.test(error.message),
  );
});

test("a file in a folder that does not exist is unavailable, not a crash", () => {
  const file = join(temporaryFile(), "missing", "history.sqlite");
  assert.throws(
    () => HistoryStore.open(file),
    (error: unknown) => error instanceof HistoryStoreUnavailableError && error.message.includes(file),
  );
});

test("a damaged record is refused as damaged, naming the chain and blocks, on load and on a write to its chunk", () => {
  const file = temporaryFile();
  const store = HistoryStore.open(file);
  store.write(1, 0n, { baseFeesWei: fees(0, 256) });
  const db = new DatabaseSync(file);
  db.exec("UPDATE records_1 SET data = x'0102' WHERE record = (SELECT record FROM chunks_1 WHERE chunk = 2)");
  db.close();
  const damaged = (error: unknown) => error instanceof HistoryStoreCorruptError && /chain 1, blocks 128 to 191: a chunk record of 2 bytes/.test(error.message);
  assert.throws(() => runsOf(store, 1), damaged);
  assert.throws(() => store.write(1, 130n, { baseFeesWei: [1n] }), damaged);
  // The other chunks still read.
  assert.equal(heldFees(store, 1, 0n, 127n).length, 128);
  store.close();
});

test("damaged pages surface as HistoryStoreCorruptError from open or from the first read, never as another error", () => {
  const file = temporaryFile();
  const store = HistoryStore.open(file);
  for (let page = 0; page < 40; page++) store.write(1, BigInt(page * 1_024), { baseFeesWei: fees(page * 1_024, 1_024) });
  store.close();
  const bytes = readFileSync(file);
  const pageSize = 4096;
  assert.ok(bytes.length > 10 * pageSize);
  // Every page after the schema's first ones overwritten with garbage.
  for (let at = 3 * pageSize; at < bytes.length; at++) bytes[at] = (at * 131) & 0xff;
  writeFileSync(file, bytes);
  let reopened: HistoryStore | undefined;
  try {
    reopened = HistoryStore.open(file);
    const opened = reopened;
    assert.throws(() => [opened.heldRanges(1), runsOf(opened, 1)], HistoryStoreCorruptError);
  } catch (error) {
    assert.ok(error instanceof HistoryStoreCorruptError, String(error));
  } finally {
    reopened?.close();
  }
});
