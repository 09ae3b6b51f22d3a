import type { BlockAnchor } from "../core/history/blockAnchor.ts";
import type { HourlySummary } from "../core/outlook/hourlySummary.ts";
import type { BlocksToWrite } from "../history/historyStoreTypes.ts";
import { type StoreProblem, storeProblemOf } from "../history/storeErrorFrom.ts";
import type { Logger } from "../log/logger.ts";
import type { StoreHealth } from "../wire/networkStatus.ts";

/** What the service needs of the store that keeps histories across restarts (shared/history/historyStore.ts). */
export interface HistoryPersistence {
  write(chainId: number, firstBlock: bigint, blocks: BlocksToWrite): void;
  load(
    chainId: number,
    fromBlock?: bigint,
    toBlock?: bigint,
  ): Iterable<{
    readonly firstBlock: bigint;
    readonly baseFeesWei: BigUint64Array;
    readonly anchors: readonly BlockAnchor[];
    /** NaN where not known. */
    readonly gasUsedRatios?: Float64Array;
    /** -1n where not known. */
    readonly blobBaseFeesWei?: BigInt64Array;
  }>;
  prune(chainId: number, beforeBlock: bigint): number;
  /** Keeps hourly summaries, each replacing the one held for its hour (HistoryStore.writeHourlySummaries). */
  writeHourlySummaries(chainId: number, summaries: readonly HourlySummary[]): void;
  /** The hourly summaries held from `fromStart` to `toStart` (unix s, both included; default all), oldest first. */
  hourlySummaries(chainId: number, fromStart?: number, toStart?: number): readonly HourlySummary[];
  /** Drops the hourly summaries of hours that start before `beforeStart`. */
  pruneHourlySummaries(chainId: number, beforeStart: number): number;
  /** How long a write waits for another process's lock (HistoryStore.setBusyTimeout); absent on stores that never wait. */
  setBusyTimeout?(busyTimeoutMs: number): void;
}

/**
 * A write waits at most this long for another process's write lock, on the event loop. Writes of gasfees itself hold
 * the lock for a few ms (a 1,024-block page ~5 ms), so two gasfees on one file rarely miss it; a lock held longer (a
 * `BEGIN EXCLUSIVE` of 15 s) makes the write fail after 20 ms and wait in the queue.
 */
export const STORE_BUSY_TIMEOUT_MS = 20;
/** Per chain, the blocks that may wait in memory for the file (~24 bytes each: 6 MB). Older waiting writes are dropped beyond. */
export const MAX_UNSAVED_BLOCKS = 262_144;
/** Per chain, the hourly summaries that may wait in memory for the file (~200 bytes each: 4 MB); older waiting ones are dropped beyond. */
export const MAX_UNSAVED_HOURS = 20_000;
/** The first retry of a failing store comes after this long, then twice as long each time up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5_000;
/** A lock is only a problem (logged, shown) once the file stayed locked this long: two gasfees on one file take turns. */
const LOCKED_GRACE_MS = 2_000;
/** Writing the queue back yields to the event loop after this much work, so that a long queue never holds a request. */
const FLUSH_SLICE_MS = 8;

/** A write the file did not take yet: blocks (`count` of them), or hourly summaries (`hours` of them). */
type WaitingWrite =
  | { readonly chainId: number; readonly firstBlock: bigint; readonly blocks: BlocksToWrite; readonly count: number; readonly hours: 0 }
  | { readonly chainId: number; readonly summaries: readonly HourlySummary[]; readonly count: 0; readonly hours: number };

/** The store's trouble now: what kind, since when, and whether it has been told (logged and shown). */
interface Trouble {
  problem: StoreProblem;
  readonly sinceMs: number;
  told: boolean;
}

export interface StoreWriterOptions {
  readonly logger: Logger;
  /** Epoch ms (tests). */
  readonly now?: () => number;
}

/**
 * The one way the service writes to the history store: a write never waits on the event loop beyond the short busy
 * timeout, and never throws. What the file does not take (another process holds its write lock, the disk is full)
 * waits in memory, in order, bounded per chain (MAX_UNSAVED_BLOCKS), and is written once the file takes writes
 * again, in slices that yield to requests. The store's health goes to /networks (health), the log (once when a problem
 * starts or changes, once when it ends) and the listeners (the service republishes the chains).
 */
export class StoreWriter {
  readonly #store: HistoryPersistence;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #queue: WaitingWrite[] = [];
  readonly #unsaved = new Map<number, number>();
  readonly #dropped = new Map<number, number>();
  readonly #listeners = new Set<() => void>();
  readonly #summaryListeners = new Set<(chainId: number, summaries: readonly HourlySummary[]) => void>();
  readonly #unsavedHours = new Map<number, number>();
  #trouble: Trouble | undefined;
  #retryMs = RETRY_FIRST_MS;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(store: HistoryPersistence, options: StoreWriterOptions) {
    this.#store = store;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
    store.setBusyTimeout?.(STORE_BUSY_TIMEOUT_MS);
  }

  /** Reads the store (at start: reads never wait for writers, the file being in WAL mode). */
  load(chainId: number): ReturnType<HistoryPersistence["load"]> {
    return this.#store.load(chainId);
  }

  /** Writes the blocks now if the file takes them, else keeps them for later. Never throws. */
  write(chainId: number, firstBlock: bigint, blocks: BlocksToWrite): void {
    if (this.#queue.length === 0 && this.#trouble === undefined) {
      try {
        this.#store.write(chainId, firstBlock, blocks);
        return;
      } catch (error) {
        if (!this.#failed(error, chainId)) return;
      }
    }
    this.#keep(chainId, firstBlock, blocks);
    this.#schedule();
  }

  /**
   * Keeps a chain's hourly summaries (each replacing the one held for its hour): written now if the file takes them,
   * else kept for later, in order with the blocks. Every listener (onHourlySummaries) hears of them at once, written
   * or waiting: the service's in-memory book of the chain's summaries is fed from here. Never throws.
   */
  writeHourlySummaries(chainId: number, summaries: readonly HourlySummary[]): void {
    if (summaries.length === 0) return;
    const copy = Object.freeze(summaries.map((summary) => Object.freeze({ ...summary })));
    let kept = true;
    if (this.#queue.length === 0 && this.#trouble === undefined) {
      try {
        this.#store.writeHourlySummaries(chainId, copy);
        kept = false;
      } catch (error) {
        if (!this.#failed(error, chainId)) {
          // Refused as data (out of bounds): not kept, and nobody told of them.
          return;
        }
      }
    }
    if (kept) {
      this.#keepHours(chainId, copy);
      this.#schedule();
    }
    for (const listener of this.#summaryListeners) listener(chainId, copy);
  }

  /** The chain's hourly summaries held in the file (at start), oldest first; none when the file cannot be read. */
  loadHourlySummaries(chainId: number): readonly HourlySummary[] {
    try {
      return this.#store.hourlySummaries(chainId);
    } catch (error) {
      this.#logger.warn("could not read the chain's stored hourly summaries; going on without them", { chainId, error: String(error) });
      return [];
    }
  }

  /** Drops the chain's stored hourly summaries of hours before `beforeStart`, when the file works and nothing waits; else skipped. */
  pruneHourlySummaries(chainId: number, beforeStart: number): void {
    if (this.#queue.length > 0 || this.#trouble !== undefined) return;
    try {
      this.#store.pruneHourlySummaries(chainId, beforeStart);
    } catch (error) {
      this.#logger.debug("could not prune the stored hourly summaries; a later prune will", { chainId, error: String(error) });
    }
  }

  /** Calls `listener` with every chain's summaries as they are written (onto the file or into the queue); returns the unsubscribe. */
  onHourlySummaries(listener: (chainId: number, summaries: readonly HourlySummary[]) => void): () => void {
    this.#summaryListeners.add(listener);
    return () => this.#summaryListeners.delete(listener);
  }

  /** Drops the chain's stored blocks older than `beforeBlock`, when the file works and nothing waits; else skipped (a later prune does it). */
  prune(chainId: number, beforeBlock: bigint): void {
    if (this.#queue.length > 0 || this.#trouble !== undefined) return;
    try {
      this.#store.prune(chainId, beforeBlock);
    } catch (error) {
      this.#logger.debug("could not prune the stored history; a later prune will", { chainId, error: String(error) });
    }
  }

  /** The store's health as /networks shows it for `chainId`. */
  health(chainId: number): StoreHealth {
    const trouble = this.#trouble?.told ? this.#trouble : undefined;
    return Object.freeze({
      state: trouble ? "failing" : "ok",
      problem: trouble?.problem ?? null,
      since: trouble?.sinceMs ?? null,
      unsavedBlocks: this.#unsaved.get(chainId) ?? 0,
      droppedBlocks: this.#dropped.get(chainId) ?? 0,
    });
  }

  /** Calls `listener` when the health changes (a problem told, changed or over); returns the unsubscribe. */
  onHealthChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops retrying, after one last attempt to write what waits (a shutdown while the file is locked loses it: the next start backfills it). */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flush(Number.POSITIVE_INFINITY);
    const unsaved = [...this.#unsaved.values()].reduce((sum, count) => sum + count, 0);
    if (unsaved > 0) this.#logger.warn("stopping with blocks not written to the history file; the next start fetches them again", { blocks: unsaved });
  }

  /** A write failed: true when it is worth keeping (the file's fault), false when the store refused its data. */
  #failed(error: unknown, chainId: number): boolean {
    const problem = storeProblemOf(error);
    if (problem === undefined) {
      this.#logger.warn("blocks refused by the history store", { chainId, error: String(error) });
      return false;
    }
    const nowMs = this.#now();
    const trouble = this.#trouble;
    if (trouble === undefined) this.#trouble = { problem, sinceMs: nowMs, told: false };
    else if (trouble.problem !== problem) {
      trouble.problem = problem;
      trouble.told = false;
    }
    const current = this.#trouble!;
    if (!current.told && (problem !== "locked" || nowMs - current.sinceMs >= LOCKED_GRACE_MS)) {
      current.told = true;
      this.#logger.warn("could not write to the history file; new blocks are kept in memory and written once it works again", {
        problem,
        error: error instanceof Error ? error.message : String(error),
      });
      this.#tell();
    }
    return true;
  }

  #keep(chainId: number, firstBlock: bigint, blocks: BlocksToWrite): void {
    const count = blocks.baseFeesWei.length;
    let unsaved = (this.#unsaved.get(chainId) ?? 0) + count;
    let dropped = 0;
    // Beyond the bound, the chain's oldest waiting writes go (a write larger than the bound itself too).
    for (let i = 0; unsaved > MAX_UNSAVED_BLOCKS && i < this.#queue.length;) {
      const waiting = this.#queue[i]!;
      if (waiting.chainId !== chainId) {
        i++;
        continue;
      }
      this.#queue.splice(i, 1);
      unsaved -= waiting.count;
      dropped += waiting.count;
    }
    if (unsaved > MAX_UNSAVED_BLOCKS) {
      unsaved -= count;
      dropped += count;
    } else this.#queue.push({ chainId, firstBlock, blocks: compactCopy(blocks), count, hours: 0 });
    this.#unsaved.set(chainId, unsaved);
    if (dropped === 0) return;
    const before = this.#dropped.get(chainId) ?? 0;
    this.#dropped.set(chainId, before + dropped);
    if (before === 0)
      this.#logger.warn("too many blocks wait for the history file; the oldest are dropped from the queue (memory keeps them, the next start fetches them)", {
        chainId,
        maxUnsavedBlocks: MAX_UNSAVED_BLOCKS,
      });
  }

  #keepHours(chainId: number, summaries: readonly HourlySummary[]): void {
    let unsaved = (this.#unsavedHours.get(chainId) ?? 0) + summaries.length;
    let dropped = 0;
    for (let i = 0; unsaved > MAX_UNSAVED_HOURS && i < this.#queue.length;) {
      const waiting = this.#queue[i]!;
      if (waiting.chainId !== chainId || waiting.hours === 0) {
        i++;
        continue;
      }
      this.#queue.splice(i, 1);
      unsaved -= waiting.hours;
      dropped += waiting.hours;
    }
    if (unsaved > MAX_UNSAVED_HOURS) {
      unsaved -= summaries.length;
      dropped += summaries.length;
    } else this.#queue.push({ chainId, summaries, count: 0, hours: summaries.length });
    this.#unsavedHours.set(chainId, unsaved);
    // Memory keeps them (the service's book); a restart rebuilds those of held blocks and backfills the others.
    if (dropped > 0) this.#logger.debug("too many hourly summaries wait for the history file; the oldest are dropped from the queue", { chainId, dropped });
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#stopped) return;
    // While failing, wait and back off; while the file works (a long queue written in slices), go on at once.
    const delayMs = this.#trouble === undefined ? 0 : this.#retryMs;
    if (this.#trouble !== undefined) this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush(FLUSH_SLICE_MS);
    }, delayMs);
    this.#timer.unref();
  }

  /** Writes waiting writes in order for up to `sliceMs`; schedules the rest, or a retry after a failure. */
  #flush(sliceMs: number): void {
    const startedAt = performance.now();
    while (this.#queue.length > 0) {
      const waiting = this.#queue[0]!;
      try {
        if ("summaries" in waiting) this.#store.writeHourlySummaries(waiting.chainId, waiting.summaries);
        else this.#store.write(waiting.chainId, waiting.firstBlock, waiting.blocks);
      } catch (error) {
        if (this.#failed(error, waiting.chainId)) {
          this.#schedule();
          return;
        }
      }
      this.#queue.shift();
      this.#unsaved.set(waiting.chainId, (this.#unsaved.get(waiting.chainId) ?? 0) - waiting.count);
      if (waiting.hours > 0) this.#unsavedHours.set(waiting.chainId, (this.#unsavedHours.get(waiting.chainId) ?? 0) - waiting.hours);
      if (this.#trouble !== undefined) this.#recovered();
      if (this.#queue.length > 0 && performance.now() - startedAt >= sliceMs) {
        this.#schedule();
        return;
      }
    }
    // Every chain's status shows its unsaved blocks: republish once the queue is empty.
    this.#tell();
  }

  #recovered(): void {
    const trouble = this.#trouble!;
    this.#trouble = undefined;
    this.#retryMs = RETRY_FIRST_MS;
    if (trouble.told)
      this.#logger.info("the history file takes writes again; the blocks kept meanwhile are being written", {
        problem: trouble.problem,
        failingForMs: this.#now() - trouble.sinceMs,
      });
  }

  #tell(): void {
    // Once stopped (the service is shutting down), nobody is to be told: the last flush only writes.
    if (this.#stopped) return;
    for (const listener of this.#listeners) listener();
  }
}

/** The waiting write in typed arrays (~24 bytes a block instead of ~100 for bigint arrays), so that the bound costs little memory. */
function compactCopy(blocks: BlocksToWrite): BlocksToWrite {
  return {
    baseFeesWei: BigUint64Array.from(blocks.baseFeesWei),
    ...(blocks.anchors === undefined ? {} : { anchors: [...blocks.anchors] }),
    ...(blocks.gasUsedRatios === undefined ? {} : { gasUsedRatios: Float64Array.from(blocks.gasUsedRatios) }),
    ...(blocks.blobBaseFeesWei === undefined ? {} : { blobBaseFeesWei: BigUint64Array.from(blocks.blobBaseFeesWei) }),
  };
}
