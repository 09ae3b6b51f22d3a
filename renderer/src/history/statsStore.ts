// The page's copy of the baseFeeStats answers it asked for, one entry per chain and request, each asked again only once
// it is older than its reader allows: switching back to a range draws from what is held, at once, and several
// readers of one request (the overview and the chart) share one answer.
import type { BaseFeeStatsBucket } from "../../../shared/wire/baseFeeStats.ts";
import { statsRequestKey, type StatsRequest } from "../live/statsRequest.ts";

export interface StatsEntry {
  /** The last answer, kept while a newer one is asked for or when asking again failed; undefined before the first. */
  readonly buckets: readonly BaseFeeStatsBucket[] | undefined;
  /** When (epoch ms) the answer in `buckets` arrived. */
  readonly fetchedAt: number | undefined;
  /**
   * Unix seconds of the oldest block the chain's history held, as the page knew it, when the answer in `buckets` was
   * asked for: the answer covers at least from there (the service's history only grows back meanwhile). A reader names
   * the span the answer covers by it ("7.2 h median"), not by what is held by the time it reads. Undefined when
   * the store was not told (historyHeld).
   */
  readonly heldFromSeconds: number | undefined;
  /** Why the last attempt failed, in words; undefined once an attempt succeeds. */
  readonly error: string | undefined;
  /** A request is on its way. */
  readonly loading: boolean;
}

export type FetchStats = (chainId: number, request: StatsRequest, signal: AbortSignal) => Promise<readonly BaseFeeStatsBucket[]>;

export const EMPTY_STATS_ENTRY: StatsEntry = Object.freeze({
  buckets: undefined,
  fetchedAt: undefined,
  heldFromSeconds: undefined,
  error: undefined,
  loading: false,
});

/** After a failed attempt, the next one waits at least this long, however often readers ask. */
export const RETRY_AFTER_FAILURE_MS = 10_000;
/** While a chain's history grows backwards (a backfill), its answers are asked again at most this often. */
export const HISTORY_REFRESH_MS = 5_000;
/** An entry no reader has asked for in this long is dropped (the heatmap's span moves every hour, say). */
export const FORGET_AFTER_MS = 3_600_000;

interface Held {
  entry: StatsEntry;
  /** The oldest block the chain's history held (as the store was told) when the answer in `entry` was asked for. */
  answerFromBlock: string | undefined;
  attemptedAt: number;
  usedAt: number;
  abort: AbortController | undefined;
}

export class StatsStore {
  readonly #fetchStats: FetchStats;
  readonly #now: () => number;
  readonly #held = new Map<string, Held>();
  readonly #listeners = new Set<() => void>();
  /** Per chain, the oldest block its history held when last told (and its time), and when that changed. */
  readonly #history = new Map<number, { oldestBlock: string; oldestTime: number | null; changedAt: number }>();

  constructor(fetchStats: FetchStats, now: () => number = Date.now) {
    this.#fetchStats = fetchStats;
    this.#now = now;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The entry of `key` (statsRequestKey): the same object until it changes, so that a reader re-renders only then. */
  read(key: string): StatsEntry {
    return this.#held.get(key)?.entry ?? EMPTY_STATS_ENTRY;
  }

  /**
   * Tells the store what the chain's history holds now (its oldest block, from /networks): when older blocks arrive,
   * answers made before are outdated whatever their age, so a page opened during a first backfill fills in as it goes.
   */
  historyHeld(chainId: number, oldestBlock: string | null, oldestTime: number | null = null): void {
    if (oldestBlock === null) return;
    const known = this.#history.get(chainId);
    if (known?.oldestBlock === oldestBlock && known.oldestTime === oldestTime) return;
    this.#history.set(chainId, { oldestBlock, oldestTime, changedAt: known?.oldestBlock === oldestBlock ? known.changedAt : this.#now() });
  }

  /**
   * Asks the service for `request` unless an answer younger than `maxAgeMs` (and made after the history last grew, or
   * younger than HISTORY_REFRESH_MS) is held, a request is already on its way,
   * or the last attempt failed less than RETRY_AFTER_FAILURE_MS ago. A reader that `follow`s the chain (the view on
   * screen, whose caption names its blocks) also has an answer that does not reach the chain's newest block asked
   * again once it is `everyMs` old: its blocks then follow the chain's as they arrive.
   */
  refresh(chainId: number, request: StatsRequest, maxAgeMs: number, follow?: { readonly newestBlock: string; readonly everyMs: number }): void {
    const now = this.#now();
    const key = statsRequestKey(chainId, request);
    this.#forgetUnused(now, key);
    const held = this.#held.get(key) ?? { entry: EMPTY_STATS_ENTRY, answerFromBlock: undefined, attemptedAt: -Infinity, usedAt: now, abort: undefined };
    held.usedAt = now;
    this.#held.set(key, held);
    const { entry } = held;
    if (entry.loading) return;
    const history = this.#history.get(chainId);
    // Made before older blocks arrived, or asked for before they did (and answered after). By block: a held block's
    // time may be retimed, its number not.
    const grewSince =
      history !== undefined &&
      ((entry.fetchedAt !== undefined && entry.fetchedAt < history.changedAt) ||
        (held.answerFromBlock !== undefined && BigInt(history.oldestBlock) < BigInt(held.answerFromBlock)));
    const outdated = entry.fetchedAt !== undefined && grewSince && now - entry.fetchedAt >= HISTORY_REFRESH_MS;
    const behind =
      follow !== undefined && entry.fetchedAt !== undefined && now - entry.fetchedAt >= follow.everyMs && !reaches(entry.buckets, follow.newestBlock);
    if (entry.fetchedAt !== undefined && now - entry.fetchedAt < maxAgeMs && !outdated && !behind) return;
    if (entry.error !== undefined && now - held.attemptedAt < Math.min(maxAgeMs, RETRY_AFTER_FAILURE_MS)) return;

    held.attemptedAt = now;
    const heldFromSeconds = history?.oldestTime ?? undefined;
    const fromBlock = history?.oldestBlock;
    const abort = new AbortController();
    held.abort = abort;
    this.#set(held, { ...entry, loading: true });
    this.#fetchStats(chainId, request, abort.signal).then(
      (buckets) => {
        if (abort.signal.aborted) return;
        held.abort = undefined;
        held.answerFromBlock = fromBlock;
        this.#set(held, { buckets, fetchedAt: this.#now(), heldFromSeconds, error: undefined, loading: false });
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        held.abort = undefined;
        this.#set(held, { ...held.entry, error: error instanceof Error ? error.message : String(error), loading: false });
      },
    );
  }

  /**
   * Ends every request on its way (the page is leaving, or its client changes): their answers are dropped, and the
   * next `refresh` asks again.
   */
  cancel(): void {
    for (const held of this.#held.values()) {
      if (held.abort === undefined) continue;
      held.abort.abort();
      held.abort = undefined;
      held.attemptedAt = -Infinity;
      this.#set(held, { ...held.entry, loading: false });
    }
  }

  #set(held: Held, entry: StatsEntry): void {
    held.entry = Object.freeze(entry);
    for (const listener of this.#listeners) listener();
  }

  #forgetUnused(now: number, keep: string): void {
    for (const [key, held] of this.#held) {
      if (key !== keep && held.abort === undefined && now - held.usedAt > FORGET_AFTER_MS) this.#held.delete(key);
    }
  }
}

/** Whether an answer's newest block held is `newestBlock` (or later). */
function reaches(buckets: readonly BaseFeeStatsBucket[] | undefined, newestBlock: string): boolean {
  const newestHeld = buckets?.findLast((bucket) => bucket.blocks > 0)?.toBlock;
  return newestHeld !== undefined && BigInt(newestHeld) >= BigInt(newestBlock);
}
