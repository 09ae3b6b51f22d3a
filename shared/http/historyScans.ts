import { setImmediate as nextTurn } from "node:timers/promises";
import type { BlockRun } from "../core/history/blockRun.ts";
import type { HistoryView } from "../core/history/historyView.ts";
import { SlicedHistoryRead } from "../core/history/slicedHistoryRead.ts";
import { ApiError } from "./apiErrors.ts";

/** How history scans share the event loop and what they cost a key (SECURITY.md "History scans"). */
export interface HistoryScanLimits {
  /** Blocks read in one turn of the event loop: each slice costs about 1 ms of CPU (32,768 blocks). */
  readonly sliceBlocks: number;
  /** Every this many blocks read cost the key one more request of its rate limit (on top of the request's own). */
  readonly blocksPerRequest: number;
  /** baseFeeStats scans waiting for their turn at most; one more is refused with RATE_LIMITED. */
  readonly maxWaiting: number;
}

export const DEFAULT_HISTORY_SCAN_LIMITS: HistoryScanLimits = Object.freeze({ sliceBlocks: 32_768, blocksPerRequest: 32_768, maxWaiting: 16 });

/** Charges a key `requests` more of its rate limit (RateLimiter.charge). */
export type ChargeKey = (keyId: string, requests: number) => void;

/**
 * The server's reads over long stretches of a chain's history (baseFeeStats, the CSV export): each reads a slice of
 * `sliceBlocks` blocks per turn of the event loop, so that no request, event stream or new block waits behind more
 * than one slice; each costs its key a request of the rate limit per `blocksPerRequest` blocks read, so that a scan
 * costs what it reads; and baseFeeStats' scans run one at a time (what they hold in memory is one scan's fees at most),
 * at most `maxWaiting` waiting their turn.
 */
export class HistoryScans {
  readonly #limits: HistoryScanLimits;
  readonly #charge: ChargeKey;
  /** Settles when the scan running now (and those before it) is over. */
  #tail: Promise<void> = Promise.resolve();
  #waiting = 0;

  constructor(limits: HistoryScanLimits, charge: ChargeKey) {
    this.#limits = limits;
    this.#charge = charge;
  }

  get limits(): HistoryScanLimits {
    return this.#limits;
  }

  /**
   * Reads the held blocks timed in `[fromSeconds, endSeconds)` oldest first, after the scans before it, a slice per
   * turn of the event loop, handing each run to `visit` (views: copy what is kept). Resolves false when `abandoned`
   * said so between slices (the client left): the rest is not read. Throws RATE_LIMITED when too many scans wait.
   */
  async read(
    keyId: string | undefined,
    history: HistoryView,
    fromSeconds: number,
    endSeconds: number,
    visit: (run: BlockRun) => void,
    abandoned: () => boolean,
  ): Promise<boolean> {
    if (this.#waiting >= this.#limits.maxWaiting) throw new ApiError("RATE_LIMITED", { retryAfterSeconds: 1 });
    this.#waiting++;
    const previous = this.#tail;
    let finished!: () => void;
    this.#tail = new Promise((resolve) => (finished = resolve));
    try {
      await previous;
      const read = new SlicedHistoryRead(history, fromSeconds, endSeconds);
      for (;;) {
        if (abandoned()) return false;
        this.chargeBlocks(keyId, read.next(this.#limits.sliceBlocks, visit));
        if (read.done) return true;
        await nextTurn();
      }
    } finally {
      this.#waiting--;
      finished();
    }
  }

  /** Charges `keyId` for `blocks` read. */
  chargeBlocks(keyId: string | undefined, blocks: number): void {
    if (keyId !== undefined && blocks > 0) this.#charge(keyId, blocks / this.#limits.blocksPerRequest);
  }
}
