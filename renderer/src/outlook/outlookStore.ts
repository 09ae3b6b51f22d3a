// The page's copy of a chain's /outlook answers, one per question (a horizon and a threshold), each asked once per
// block (the service prepares its outlook once per block, so a second ask in the same block gets the same answer),
// and at most as often as the reader allows: a chain of quarter-second blocks is not asked four times a second.
import { type OutlookAnswer, type OutlookQuery, outlookQueryString } from "../live/outlookRequest.ts";

export type FetchOutlook = (chainId: number, query: OutlookQuery, signal: AbortSignal) => Promise<OutlookAnswer>;

export interface OutlookEntry {
  /** The last answer, kept while a newer one is asked for or when asking again failed; undefined before the first. */
  readonly answer: OutlookAnswer | undefined;
  /** The newest block when `answer` was asked for. */
  readonly block: string | undefined;
  /**
   * The question `answer` answers (its query string): another threshold's while the new one's answer is on its way,
   * so that the figures stay drawn meanwhile and the chance is not read as the new price's.
   */
  readonly question: string | undefined;
  /** Why the last attempt failed, in words; undefined once one succeeds. */
  readonly error: string | undefined;
}

export const EMPTY_OUTLOOK_ENTRY: OutlookEntry = Object.freeze({ answer: undefined, block: undefined, question: undefined, error: undefined });

/** After a failed attempt, the next one waits at least this long. */
const RETRY_AFTER_FAILURE_MS = 10_000;

interface Held {
  readonly withinHours: number;
  entry: OutlookEntry;
  askedAtBlock: string | undefined;
  attemptedAt: number;
  failed: boolean;
  abort: AbortController | undefined;
}

/** One chain's one question, as a key. */
export function outlookKey(chainId: number, query: OutlookQuery): string {
  return `${chainId}?${outlookQueryString(query)}`;
}

export class OutlookStore {
  readonly #fetch: FetchOutlook;
  readonly #now: () => number;
  readonly #held = new Map<string, Held>();
  readonly #listeners = new Set<() => void>();
  #version = 0;

  constructor(fetch: FetchOutlook, now: () => number = Date.now) {
    this.#fetch = fetch;
    this.#now = now;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** A number that changes whenever any entry does (for useSyncExternalStore). */
  readonly version = (): number => this.#version;

  /** The question's entry: the same object until it changes. */
  read(chainId: number, query: OutlookQuery): OutlookEntry {
    return this.#held.get(outlookKey(chainId, query))?.entry ?? EMPTY_OUTLOOK_ENTRY;
  }

  /**
   * Asks each of the chain's `queries` whose answer held was asked at another block than `block`, unless it is on
   * its way or was asked less than `everyMs` ago (after a failure, RETRY_AFTER_FAILURE_MS). The chain's other
   * questions (an older threshold) are forgotten, and their requests stopped; a new question starts with the last
   * answer of the forgotten one of the same horizon, until its own arrives.
   */
  refresh(chainId: number, block: string, queries: readonly OutlookQuery[], everyMs: number): void {
    const keys = new Set(queries.map((query) => outlookKey(chainId, query)));
    const forgotten = new Map<number, OutlookEntry>();
    for (const [key, held] of this.#held) {
      if (key.startsWith(`${chainId}?`) && !keys.has(key)) {
        held.abort?.abort();
        this.#held.delete(key);
        if (held.entry.answer !== undefined) forgotten.set(held.withinHours, held.entry);
      }
    }
    const now = this.#now();
    for (const query of queries) {
      const key = outlookKey(chainId, query);
      const held = this.#held.get(key);
      if (held !== undefined) {
        if (held.abort !== undefined) continue;
        if (!held.failed && held.askedAtBlock === block) continue;
        if (now - held.attemptedAt < (held.failed ? Math.max(everyMs, RETRY_AFTER_FAILURE_MS) : everyMs)) continue;
      }
      const seed = held?.entry ?? forgotten.get(query.withinHours) ?? EMPTY_OUTLOOK_ENTRY;
      this.#ask(key, chainId, query, block, held === undefined ? { ...seed, error: undefined } : seed, now);
    }
  }

  /** Stops every request on its way (the page closes or changes token). */
  cancel(): void {
    for (const held of this.#held.values()) held.abort?.abort();
    this.#held.clear();
  }

  #ask(key: string, chainId: number, query: OutlookQuery, block: string, entry: OutlookEntry, now: number): void {
    const abort = new AbortController();
    const record: Held = { withinHours: query.withinHours, entry, askedAtBlock: block, attemptedAt: now, failed: false, abort };
    this.#held.set(key, record);
    this.#fetch(chainId, query, abort.signal).then(
      (answer) => {
        if (this.#held.get(key) !== record) return;
        record.abort = undefined;
        record.entry = { answer, block, question: outlookQueryString(query), error: undefined };
        this.#changed();
      },
      (error: unknown) => {
        if (this.#held.get(key) !== record || abort.signal.aborted) return;
        record.abort = undefined;
        record.failed = true;
        record.entry = { ...record.entry, error: error instanceof Error ? error.message : String(error) };
        this.#changed();
      },
    );
  }

  #changed(): void {
    this.#version += 1;
    for (const listener of this.#listeners) listener();
  }
}
