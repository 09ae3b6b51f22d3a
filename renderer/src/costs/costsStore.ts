// The page's copy of each chain's GET /networks/{chainId}/costs answer, shared by its readers (the chain's "what it
// costs now" panel and its tile), asked again as the chain's blocks arrive, at most as often as the most eager reader
// allows: a chain of quarter-second blocks is not asked four times a second.
import type { Costs } from "../../../shared/wire/costs.ts";

export interface CostsEntry {
  /** The last answer, kept while a newer one is asked for or when asking again failed; undefined before the first. */
  readonly costs: Costs | undefined;
  /** When (epoch ms) the answer in `costs` arrived. */
  readonly fetchedAt: number | undefined;
  /** Why the last attempt failed, in words (with the service's error code when it gave one); undefined once one succeeds. */
  readonly error: string | undefined;
  /** The service's error code of the last failed attempt (NO_DATA while the chain has no block yet, …). */
  readonly errorCode: string | undefined;
}

export type FetchCosts = (chainId: number, signal: AbortSignal) => Promise<Costs>;

export const EMPTY_COSTS_ENTRY: CostsEntry = Object.freeze({ costs: undefined, fetchedAt: undefined, error: undefined, errorCode: undefined });

/** After a failed attempt, the next one waits at least this long. */
const RETRY_AFTER_FAILURE_MS = 10_000;

interface Held {
  entry: CostsEntry;
  /** The chain's state (costsStateKey) when the answer in `entry` was asked for. */
  askedAtState: string | undefined;
  attemptedAt: number;
  failed: boolean;
  abort: AbortController | undefined;
}

export class CostsStore {
  readonly #fetchCosts: FetchCosts;
  readonly #now: () => number;
  readonly #held = new Map<number, Held>();
  readonly #listeners = new Set<() => void>();

  constructor(fetchCosts: FetchCosts, now: () => number = Date.now) {
    this.#fetchCosts = fetchCosts;
    this.#now = now;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The chain's entry: the same object until it changes, so that a reader re-renders only then. */
  read(chainId: number): CostsEntry {
    return this.#held.get(chainId)?.entry ?? EMPTY_COSTS_ENTRY;
  }

  /**
   * Asks for the chain's costs unless an answer is on its way, or the one held was asked in the same `state` of the
   * chain (costsStateKey: its newest block and its price) already, or was asked less than `everyMs` ago (or, after a
   * failure, less than RETRY_AFTER_FAILURE_MS ago).
   */
  refresh(chainId: number, state: string | null, everyMs: number): void {
    const held = this.#held.get(chainId);
    const now = this.#now();
    if (held !== undefined) {
      if (held.abort !== undefined) return;
      if (now - held.attemptedAt < (held.failed ? Math.max(everyMs, RETRY_AFTER_FAILURE_MS) : everyMs)) return;
      if (!held.failed && state !== null && held.askedAtState === state) return;
    }
    const abort = new AbortController();
    const entry = held?.entry ?? EMPTY_COSTS_ENTRY;
    const record: Held = { entry, askedAtState: state ?? undefined, attemptedAt: now, failed: false, abort };
    this.#held.set(chainId, record);
    this.#fetchCosts(chainId, abort.signal).then(
      (costs) => {
        if (this.#held.get(chainId) !== record) return;
        record.abort = undefined;
        record.entry = { costs, fetchedAt: this.#now(), error: undefined, errorCode: undefined };
        this.#changed();
      },
      (error: unknown) => {
        if (this.#held.get(chainId) !== record || abort.signal.aborted) return;
        record.abort = undefined;
        record.failed = true;
        const code = (error as { code?: unknown }).code;
        record.entry = {
          ...record.entry,
          error: error instanceof Error ? error.message : String(error),
          errorCode: typeof code === "string" ? code : undefined,
        };
        this.#changed();
      },
    );
  }

  /** Stops every request on its way (the page closes or changes token). */
  cancel(): void {
    for (const held of this.#held.values()) held.abort?.abort();
    this.#held.clear();
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

/**
 * What the costs depend on, as /networks tells it with each change: the newest block (the base fee, the tips) and the
 * price (its round, or why there is none). A price that goes stale between blocks changes it too, so that the page
 * never keeps showing a price the service no longer uses.
 */
export function costsStateKey(status: {
  readonly newestBlock: string | null;
  readonly price: { readonly updatedAt: number; readonly value: string } | null;
  readonly priceProblem: string | null;
}): string {
  return `${status.newestBlock ?? "-"} ${status.price === null ? `none: ${status.priceProblem ?? ""}` : `${status.price.value} at ${status.price.updatedAt}`}`;
}
