import { closeSync, openSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { PricePointStore } from "./pricePointStore.ts";
import { AlertFiringStore } from "./alertFiringStore.ts";
import type { BlocksToWrite, HeldRange, StoredRun } from "./historyStoreTypes.ts";
import {
  HistoryStoreCorruptError,
  HistoryStoreError,
  HistoryStoreInputError,
  HistoryStoreReadOnlyError,
  HistoryStoreUnavailableError,
} from "./historyStoreErrors.ts";
import { prepareChainStatements, type ChainStatements, type ChunkRow } from "./storeChainStatements.ts";
import { ChunkFormatError, decodeChunk, encodeChunk } from "./storeChunkCodec.ts";
import { STORE_CHUNK_BLOCKS, ChunkSlots, heldCountOf } from "./storeChunkSlots.ts";
import { storeErrorFrom } from "./storeErrorFrom.ts";
import { StoredRunBuilder } from "./storeRunBuilder.ts";
import { chainTablesExist, createChainTables, prepareSchema, rollback } from "./storeSchema.ts";
import { checkBlock, checkChainId, checkWrite, MAX_BLOCK, MAX_TIMESTAMP } from "./storeWriteInput.ts";
import type { HourlySummary } from "../core/outlook/hourlySummary.ts";
import {
  checkSummaries,
  createHourlySummaryTable,
  hourlySummaryTableExists,
  type HourlySummaryStatements,
  prepareHourlySummaryStatements,
  summaryOfRow,
  summaryRowValues,
} from "./hourlySummaryStore.ts";

export type { BlockAnchor, BlocksToWrite, HeldRange, StoredRun } from "./historyStoreTypes.ts";

export interface HistoryStoreOptions {
  /** How long a write waits for another process's write to finish before it gives up (default 5 s). */
  readonly busyTimeoutMs?: number;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5_000;
const MAX_BUSY_TIMEOUT_MS = 60_000;
/** Chunks read per query while loading: 65,536 blocks, so that no read stays open while the caller works. */
const LOAD_PAGE_CHUNKS = 1_024;
/** After a checkpoint SQLite cuts the write-ahead log back to this size (it checkpoints by itself every ~4 MB). */
const WAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;
/** Owner read and write only. The file holds public chain data, but nothing in the config folder is for others. */
const PRIVATE_FILE_MODE = 0o600;

/**
 * The persisted history of base fees: per chain, every held block's base fee (and gas-used ratio and blob base fee
 * where given), and the exact timestamps of anchor blocks, in one SQLite file (node:sqlite, no native addon).
 *
 * Several processes may use one file at once (the desktop app and `npm run serve` on the same config folder): each
 * write is one transaction under SQLite's write lock, readers never wait (WAL), and a process killed mid-write loses
 * only that write. Every method is synchronous (node:sqlite has no other API) and short: a 1,024-block page costs
 * well under 5 ms of CPU. A write that finds another process's write under way waits for it, blocking the thread, for
 * at most the busy timeout; those writes hold the lock for milliseconds.
 *
 * Every failure is a HistoryStoreError (see historyStoreErrors.ts) naming the file and what to do: the caller logs it
 * and runs on without persistence.
 *
 * The same file keeps the alert rules' last firings (`alertFirings`), so that their cooldowns outlive a restart, and
 * each chain's hourly summaries (`writeHourlySummaries`, `hourlySummaries`), kept for a year for the outlook.
 */
export class HistoryStore {
  /** The working chunk of writes and prunes (loads have their own: a load may be paused while a write runs). */
  private readonly slots: ChunkSlots;
  private readonly statements = new Map<number, ChainStatements>();
  private readonly summaryStatements = new Map<number, HourlySummaryStatements>();
  private closed = false;

  private constructor(
    /** The database file, as given to open (for logs). */
    readonly file: string,
    private readonly db: DatabaseSync,
    /** Each alert rule's last firing, in this file (read when the alert service starts, written when a rule fires). */
    readonly alertFirings: AlertFiringStore,
    /** The gas tokens' price points, in this file (shared/service/pricePoints.ts). */
    readonly pricePoints: PricePointStore,
  ) {
    this.slots = new ChunkSlots();
  }

  /**
   * Opens the history in `file`, creating it (mode 0600, and so its -wal and -shm files) with the schema when it is
   * missing or empty. Throws a HistoryStoreError when it cannot: HistoryStoreCorruptError (damaged, or not a
   * database), HistoryStoreNewerSchemaError (made by a newer gasfees), HistoryStoreForeignFileError (another
   * application's database, left untouched) or HistoryStoreUnavailableError (a missing folder, no permission).
   */
  static open(file: string, options: HistoryStoreOptions = {}): HistoryStore {
    if (typeof file !== "string" || file === "" || file === ":memory:" || file.startsWith("file:")) {
      throw new HistoryStoreInputError(String(file), "the history needs the path of a file");
    }
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    checkBusyTimeout(file, busyTimeoutMs);
    try {
      // Created here rather than by SQLite, for its mode; SQLite gives the -wal and -shm files the same.
      closeSync(openSync(file, "a", PRIVATE_FILE_MODE));
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      // An existing file this process may not write is not one it failed to create.
      if (isReadOnlyError(error)) throw new HistoryStoreReadOnlyError(file, detail, { cause: error });
      throw new HistoryStoreUnavailableError(file, "create", detail, { cause: error });
    }
    checkSideFilesWritable(file);
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(file);
    } catch (error) {
      throw openErrorFrom(file, error);
    }
    try {
      db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
      prepareSchema(db, file);
      // On every open, not only with a new file's schema: a file from before alert firings were kept gets the table too.
      const alertFirings = AlertFiringStore.open(file, db);
      const pricePoints = PricePointStore.open(file, db);
      // NORMAL in WAL mode: a commit survives the process being killed (not a power cut, which may lose the last ones).
      db.exec(`PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
      return new HistoryStore(file, db, alertFirings, pricePoints);
    } catch (error) {
      db.close();
      throw openErrorFrom(file, error);
    }
  }

  /**
   * Sets how long a write waits for another process's write lock from now on (0 to 60,000 ms). The service opens the
   * file with the default (5 s, while it starts) and then shortens it: its writes run on the event loop, so a held
   * lock must make them fail fast and be retried later (service/storeWriter.ts), not stall every request.
   */
  setBusyTimeout(busyTimeoutMs: number): void {
    this.ensureOpen();
    checkBusyTimeout(this.file, busyTimeoutMs);
    this.db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  }

  /**
   * Caps the file at `pages` pages of 4 KiB from now on (SQLite's max_page_count, this connection only; never below
   * the pages it already has): a write that would grow it further fails as on a full disk (SQLITE_FULL), and takes
   * effect again once the cap is raised. It is how the tests fill the "disk" without filling one; returns the cap set.
   */
  setMaxPageCount(pages: number): number {
    this.ensureOpen();
    if (!Number.isSafeInteger(pages) || pages < 1) throw new HistoryStoreInputError(this.file, `max page count ${pages} is not a whole number from 1`);
    const row = this.db.prepare(`PRAGMA max_page_count = ${pages}`).get();
    return Number(row?.max_page_count);
  }

  /** The pages the file has now (for setMaxPageCount). */
  pageCount(): number {
    this.ensureOpen();
    return Number(this.db.prepare("PRAGMA page_count").get()?.page_count);
  }

  /**
   * Stores consecutive blocks from `firstBlock` in one transaction: all of them or, if it fails, none. A block
   * already held is replaced (a re-mined block): its base fee always; its gas-used ratio, blob base fee and timestamp
   * where this write gives them, while those it leaves out keep their held values (a write without an anchor for a
   * block says nothing about its timestamp). Everything is checked first (HistoryStoreInputError: nothing written).
   */
  write(chainId: number, firstBlock: bigint, blocks: BlocksToWrite): void {
    this.ensureOpen();
    const input = checkWrite(this.file, chainId, firstBlock, blocks);
    if (input.count === 0) return;
    const lastBlock = input.firstBlock + input.count - 1;
    const knewChain = this.statements.has(chainId);
    try {
      this.inWriteTransaction(() => {
        const statements = this.statementsFor(chainId, true)!;
        const firstChunk = Math.floor(input.firstBlock / STORE_CHUNK_BLOCKS);
        const lastChunk = Math.floor(lastBlock / STORE_CHUNK_BLOCKS);
        const held = new Map<number, ChunkRow>();
        for (const row of statements.chunksBetween.all(firstChunk, lastChunk, lastChunk - firstChunk + 1) as unknown as ChunkRow[])
          held.set(Number(row.chunk), row);
        const { slots } = this;
        for (let chunk = firstChunk; chunk <= lastChunk; chunk++) {
          const existing = held.get(chunk);
          if (existing) this.decode(chainId, existing, slots);
          else slots.clear();
          const chunkStart = chunk * STORE_CHUNK_BLOCKS;
          const fromSlot = Math.max(input.firstBlock, chunkStart) - chunkStart;
          const toSlot = Math.min(lastBlock, chunkStart + STORE_CHUNK_BLOCKS - 1) - chunkStart;
          for (let slot = fromSlot, i = chunkStart + fromSlot - input.firstBlock; slot <= toSlot; slot++, i++) {
            slots.hold(slot);
            slots.baseFeesWei[slot] = input.baseFeesWei[i]!;
            if (input.gasUsedParts) slots.gasUsedParts[slot] = input.gasUsedParts[i]!;
            if (input.blobBaseFeesWei) slots.blobBaseFeesWei[slot] = input.blobBaseFeesWei[i]!;
            const timestamp = input.anchorTimestamps?.[i] ?? Number.NaN;
            if (!Number.isNaN(timestamp)) slots.timestamps[slot] = timestamp;
          }
          const record = encodeChunk(slots);
          const mask = slots.heldMask();
          if (existing) {
            statements.updateRecord.run(record, existing.record);
            if (mask !== existing.held) statements.updateHeld.run(mask, chunk);
          } else {
            const { lastInsertRowid } = statements.insertRecord.run(record);
            statements.insertChunk.run(chunk, mask, lastInsertRowid);
          }
        }
      });
    } catch (error) {
      // Tables made by a transaction that rolled back are gone again: prepare anew next time.
      if (!knewChain) this.statements.delete(chainId);
      throw storeErrorFrom(this.file, "write to", error);
    }
  }

  /**
   * The held blocks of a chain from `fromBlock` to `toBlock` (both included; by default all), oldest first, as runs
   * of consecutive blocks: a gap, or MAX_RUN_BLOCKS (65,536) blocks, starts a new run. Reads 65,536 blocks per query
   * as the caller iterates, so the table is never in memory at once and no read stays open between runs (another
   * process's writes between two runs may show in the later one). Arguments are checked at the call.
   */
  load(chainId: number, fromBlock?: bigint, toBlock?: bigint): Iterable<StoredRun> {
    this.ensureOpen();
    checkChainId(this.file, chainId);
    const from = fromBlock === undefined ? 0 : checkBlock(this.file, fromBlock, "fromBlock");
    const to = toBlock === undefined ? MAX_BLOCK : checkBlock(this.file, toBlock, "toBlock");
    return this.runsBetween(chainId, from, to);
  }

  /** The held stretches of consecutive blocks of a chain, oldest first. Reads only the small chunks table. */
  heldRanges(chainId: number): readonly HeldRange[] {
    this.ensureOpen();
    checkChainId(this.file, chainId);
    try {
      const statements = this.statementsFor(chainId, false);
      if (!statements) return [];
      const ranges: HeldRange[] = [];
      let from = -1;
      let next = -1;
      const close = () => {
        if (from >= 0) ranges.push({ fromBlock: BigInt(from), toBlock: BigInt(next - 1) });
      };
      for (const [chunk, low, high] of statements.heldHalves.iterate() as Iterable<[number, number, number]>) {
        const chunkStart = chunk * STORE_CHUNK_BLOCKS;
        if (low === 0xffff_ffff && high === 0xffff_ffff) {
          // A full chunk (the usual case): one comparison, not 64.
          if (chunkStart !== next) {
            close();
            from = chunkStart;
          }
          next = chunkStart + STORE_CHUNK_BLOCKS;
          continue;
        }
        this.slots.setHeldHalves(low, high);
        for (let slot = 0; slot < STORE_CHUNK_BLOCKS; slot++) {
          if (!this.slots.isHeld(slot)) continue;
          const block = chunkStart + slot;
          if (block !== next) {
            close();
            from = block;
          }
          next = block + 1;
        }
      }
      close();
      return ranges;
    } catch (error) {
      throw storeErrorFrom(this.file, "read", error);
    }
  }

  /** Drops a chain's blocks older than `beforeBlock` in one transaction; returns how many it dropped. */
  prune(chainId: number, beforeBlock: bigint): number {
    this.ensureOpen();
    checkChainId(this.file, chainId);
    const before = checkBlock(this.file, beforeBlock, "beforeBlock");
    try {
      return this.inWriteTransaction(() => {
        const statements = this.statementsFor(chainId, false);
        if (!statements) return 0;
        const boundaryChunk = Math.floor(before / STORE_CHUNK_BLOCKS);
        let dropped = 0;
        for (const row of statements.heldMasksBefore.iterate(boundaryChunk) as Iterable<{ held: bigint }>) dropped += heldCountOf(row.held);
        statements.deleteRecordsBefore.run(boundaryChunk);
        statements.deleteChunksBefore.run(boundaryChunk);
        const boundarySlot = before % STORE_CHUNK_BLOCKS;
        const boundary = boundarySlot === 0 ? undefined : (statements.chunksBetween.get(boundaryChunk, boundaryChunk, 1) as ChunkRow | undefined);
        if (boundary) {
          const { slots } = this;
          this.decode(chainId, boundary, slots);
          for (let slot = 0; slot < boundarySlot; slot++) {
            if (!slots.isHeld(slot)) continue;
            slots.release(slot);
            dropped++;
          }
          if (slots.heldCount() === 0) {
            statements.deleteRecord.run(boundary.record);
            statements.deleteChunk.run(boundaryChunk);
          } else {
            statements.updateRecord.run(encodeChunk(slots), boundary.record);
            statements.updateHeld.run(slots.heldMask(), boundaryChunk);
          }
        }
        return dropped;
      });
    } catch (error) {
      throw storeErrorFrom(this.file, "prune", error);
    }
  }

  /**
   * Keeps a chain's hourly summaries (hourlySummaryStore.ts) in one transaction: each replaces the one held for its
   * hour, if any. Everything is checked first (HistoryStoreInputError: nothing written).
   */
  writeHourlySummaries(chainId: number, summaries: readonly HourlySummary[]): void {
    this.ensureOpen();
    checkChainId(this.file, chainId);
    checkSummaries(this.file, summaries);
    if (summaries.length === 0) return;
    const knewChain = this.summaryStatements.has(chainId);
    try {
      this.inWriteTransaction(() => {
        const { upsert } = this.summaryStatementsFor(chainId, true)!;
        for (const summary of summaries) upsert.run(...summaryRowValues(summary));
      });
    } catch (error) {
      if (!knewChain) this.summaryStatements.delete(chainId);
      throw storeErrorFrom(this.file, "write hourly summaries to", error);
    }
  }

  /**
   * A chain's hourly summaries whose starts lie from `fromStart` to `toStart` (unix seconds, both included; by default
   * all), oldest first. A row this gasfees did not write (out of bounds, damaged) is left out.
   */
  hourlySummaries(chainId: number, fromStart?: number, toStart?: number): HourlySummary[] {
    this.ensureOpen();
    checkChainId(this.file, chainId);
    const from = fromStart === undefined ? 0 : checkSummaryBound(this.file, fromStart, "fromStart");
    const to = toStart === undefined ? MAX_TIMESTAMP : checkSummaryBound(this.file, toStart, "toStart");
    if (from > to) return [];
    try {
      const statements = this.summaryStatementsFor(chainId, false);
      if (!statements) return [];
      const summaries: HourlySummary[] = [];
      for (const row of statements.between.iterate(from, to) as Iterable<Parameters<typeof summaryOfRow>[0]>) {
        const summary = summaryOfRow(row);
        if (summary !== undefined) summaries.push(summary);
      }
      return summaries;
    } catch (error) {
      throw storeErrorFrom(this.file, "read the hourly summaries of", error);
    }
  }

  /** Drops a chain's hourly summaries of hours that start before `beforeStart` (unix seconds); returns how many. */
  pruneHourlySummaries(chainId: number, beforeStart: number): number {
    this.ensureOpen();
    checkChainId(this.file, chainId);
    const before = checkSummaryBound(this.file, beforeStart, "beforeStart");
    try {
      const statements = this.summaryStatementsFor(chainId, false);
      if (!statements) return 0;
      return Number(statements.deleteBefore.run(before).changes);
    } catch (error) {
      throw storeErrorFrom(this.file, "prune the hourly summaries of", error);
    }
  }

  /** The chains that have held blocks at some time (their tables exist), ascending. */
  chainIds(): number[] {
    this.ensureOpen();
    try {
      return this.db
        .prepare("SELECT chain_id FROM chains ORDER BY chain_id")
        .all()
        .map((row) => Number(row.chain_id));
    } catch (error) {
      throw storeErrorFrom(this.file, "read", error);
    }
  }

  /**
   * Copies the write-ahead log into the database file and cuts the log back (SQLite also does this by itself every
   * ~4 MB of log). For measuring the file's size; never needed for correctness.
   */
  checkpoint(): void {
    this.ensureOpen();
    try {
      this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch (error) {
      throw storeErrorFrom(this.file, "checkpoint", error);
    }
  }

  /** Closes the file (the last process to close it folds the log into it). Later calls throw; closing again does nothing. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    this.summaryStatements.clear();
    try {
      this.db.close();
    } catch (error) {
      throw storeErrorFrom(this.file, "close", error);
    }
  }

  private *runsBetween(chainId: number, from: number, to: number): Generator<StoredRun> {
    if (from > to) return;
    const slots = new ChunkSlots();
    const builder = new StoredRunBuilder();
    const firstChunk = Math.floor(from / STORE_CHUNK_BLOCKS);
    const lastChunk = Math.floor(to / STORE_CHUNK_BLOCKS);
    let nextChunk = firstChunk;
    while (nextChunk <= lastChunk) {
      this.ensureOpen();
      let rows: ChunkRow[];
      try {
        const statements = this.statementsFor(chainId, false);
        if (!statements) return;
        rows = statements.chunksBetween.all(nextChunk, lastChunk, LOAD_PAGE_CHUNKS) as unknown as ChunkRow[];
      } catch (error) {
        throw storeErrorFrom(this.file, "read", error);
      }
      for (const row of rows) {
        const chunk = Number(row.chunk);
        this.decode(chainId, row, slots);
        const fromSlot = chunk === firstChunk ? from % STORE_CHUNK_BLOCKS : 0;
        const toSlot = chunk === lastChunk ? to % STORE_CHUNK_BLOCKS : STORE_CHUNK_BLOCKS - 1;
        yield* builder.add(chunk, slots, fromSlot, toSlot);
      }
      if (rows.length < LOAD_PAGE_CHUNKS) break;
      nextChunk = Number(rows[rows.length - 1]!.chunk) + 1;
    }
    const last = builder.flush();
    if (last) yield last;
  }

  /** Decodes a stored chunk, or throws HistoryStoreCorruptError saying which blocks are damaged. */
  private decode(chainId: number, row: ChunkRow, into: ChunkSlots): void {
    try {
      decodeChunk(row.data, row.held, into);
    } catch (error) {
      if (!(error instanceof ChunkFormatError)) throw error;
      const start = Number(row.chunk) * STORE_CHUNK_BLOCKS;
      throw new HistoryStoreCorruptError(this.file, `chain ${chainId}, blocks ${start} to ${start + STORE_CHUNK_BLOCKS - 1}: ${error.message}`, {
        cause: error,
      });
    }
  }

  /** The chain's statements, preparing them on first use; undefined when its tables do not exist and `create` is false. */
  private statementsFor(chainId: number, create: boolean): ChainStatements | undefined {
    const known = this.statements.get(chainId);
    if (known) return known;
    if (create) createChainTables(this.db, chainId);
    else if (!chainTablesExist(this.db, chainId)) return undefined;
    const statements = prepareChainStatements(this.db, chainId);
    this.statements.set(chainId, statements);
    return statements;
  }

  /** The chain's summary statements, preparing them on first use; undefined when its table does not exist and `create` is false. */
  private summaryStatementsFor(chainId: number, create: boolean): HourlySummaryStatements | undefined {
    const known = this.summaryStatements.get(chainId);
    if (known) return known;
    if (create) createHourlySummaryTable(this.db, chainId);
    else if (!hourlySummaryTableExists(this.db, chainId)) return undefined;
    const statements = prepareHourlySummaryStatements(this.db, chainId);
    this.summaryStatements.set(chainId, statements);
    return statements;
  }

  /** Runs `work` in a write transaction, taking the write lock first (waiting up to the busy timeout for it). */
  private inWriteTransaction<T>(work: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      rollback(this.db);
      throw error;
    }
  }

  private ensureOpen(): void {
    if (this.closed) throw new HistoryStoreError(this.file, `The history store of ${this.file} is closed: open it again to use it.`);
  }
}

/** Checks a bound of hourly summaries' starts: unix seconds, a whole number from 0 to 2^32 - 1. */
function checkSummaryBound(file: string, seconds: number, what: string): number {
  if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > MAX_TIMESTAMP)
    throw new HistoryStoreInputError(file, `${what} ${String(seconds)} is not a time in unix seconds (a whole number from 0 to 2^32 - 1)`);
  return seconds;
}

function checkBusyTimeout(file: string, busyTimeoutMs: number): void {
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0 || busyTimeoutMs > MAX_BUSY_TIMEOUT_MS) {
    throw new HistoryStoreInputError(file, `busy timeout ${busyTimeoutMs} ms is not a whole number from 0 to ${MAX_BUSY_TIMEOUT_MS}`);
  }
}

/**
 * Refuses a history whose -wal or -shm file (left by another process, or by a crash) this process may not write,
 * before SQLite opens it. SQLite would fall back to a read-only mapping of the -shm file and open the history all
 * the same, to fail at each write, and a mapping of a file that cannot grow as SQLite expects may end the process
 * with SIGBUS, which no catch sees and no log line tells. Files that do not exist yet are SQLite's to create.
 */
function checkSideFilesWritable(file: string): void {
  for (const suffix of ["-wal", "-shm"]) {
    const path = `${file}${suffix}`;
    try {
      closeSync(openSync(path, "r+"));
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === "ENOENT") continue;
      const detail = `its ${suffix} file ${path} cannot be written: ${error instanceof Error ? error.message : String(error)}`;
      if (isReadOnlyError(error)) throw new HistoryStoreReadOnlyError(file, detail, { cause: error });
      throw new HistoryStoreUnavailableError(file, "open", detail, { cause: error });
    }
  }
}

/** Whether a file system call failed because the file (or its file system) may be read but not written. */
function isReadOnlyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "EACCES" || code === "EPERM" || code === "EROFS";
}

/** Whatever failed while opening, as a HistoryStoreError: open never throws anything the service would not catch. */
function openErrorFrom(file: string, error: unknown): HistoryStoreError {
  const mapped = storeErrorFrom(file, "open", error);
  if (mapped instanceof HistoryStoreError) return mapped;
  return new HistoryStoreUnavailableError(file, "open", error instanceof Error ? error.message : String(error), { cause: error });
}
