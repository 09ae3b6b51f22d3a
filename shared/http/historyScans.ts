import { setImmediate as nextTurn, setTimeout as rest } from "node:timers/promises";
import { BucketScratch } from "../core/history/bucketStats.ts";
import { ApiError } from "./apiErrors.ts";

/** How history scans share the event loop and what they cost a key (SECURITY.md "History scans"). */
export interface HistoryScanLimits {
  /** Blocks read, or fees of one bucket summarised, in one turn of the event loop (32,768: about 1 to 3 ms of CPU). */
  readonly sliceBlocks: number;
  /** Every this many blocks read cost the key one more request of its rate limit (on top of the request's own). */
  readonly blocksPerRequest: number;
  /** baseFeeStats scans running or waiting for their turn at most; one more is refused with RATE_LIMITED. */
  readonly maxWaiting: number;
  /**
   * After this much time in slices since they last rested, the scans rest as long (a timer: the process idle if
   * nothing else is due). One scan of a week in 672 buckets (about 30 ms) never rests; scans back to back take at
   * most half of the process's time, so that the rest of the service keeps the other half however many wait, and the
   * process is not the always-busy one that a loaded machine's scheduler makes wait longest.
   */
  readonly workMsBeforeRest: number;
}

export const DEFAULT_HISTORY_SCAN_LIMITS: HistoryScanLimits = Object.freeze({
  sliceBlocks: 32_768,
  blocksPerRequest: 32_768,
  maxWaiting: 64,
  workMsBeforeRest: 10,
});

/** Charges a key `requests` more of its rate limit (RateLimiter.charge). */
export type ChargeKey = (keyId: string, requests: number) => void;

/**
 * The server's reads over long stretches of a chain's history (baseFeeStats, the CSV export): each reads a slice of
 * `sliceBlocks` blocks per turn of the event loop, so that no request, event stream or new block waits behind more
 * than one slice; they work at most half the time (workMsBeforeRest); each costs its key a request of the rate limit
 * per `blocksPerRequest` blocks read, so that a scan costs what it reads; and baseFeeStats' scans run one at a time (what they hold in memory is one scan's fees at most),
 * at most `maxWaiting` waiting their turn.
 */
export class HistoryScans {
  readonly #limits: HistoryScanLimits;
  readonly #charge: ChargeKey;
  /** Settles when the scan running now (and those before it) is over. */
  #tail: Promise<void> = Promise.resolve();
  #waiting = 0;
  /** The buffers of the scan running, reused by the next; dropped when none runs or waits. */
  #bucketScratch: BucketScratch | undefined;
  /** Time spent in slices since the scans last rested. */
  #workedMs = 0;

  constructor(limits: HistoryScanLimits, charge: ChargeKey) {
    this.#limits = limits;
    this.#charge = charge;
  }

  get limits(): HistoryScanLimits {
    return this.#limits;
  }

  /**
   * Runs `steps` after the scans before it, one step per turn of the event loop, charging the blocks each step says it
   * read (each reads or works out at most `sliceBlocks`: bucketStatsInSlices), and resolves with what it returns; or
   * undefined once `abandoned` says so between steps (the client left): the rest is not done. Throws RATE_LIMITED
   * when `maxWaiting` scans are running or waiting already.
   */
  async run<T>(keyId: string | undefined, steps: Generator<number, T>, abandoned: () => boolean): Promise<T | undefined> {
    if (this.#waiting >= this.#limits.maxWaiting) {
      throw new ApiError("RATE_LIMITED", { retryAfterSeconds: 1, limit: { what: "baseFeeStats requests running or waiting", max: this.#limits.maxWaiting } });
    }
    this.#waiting++;
    const previous = this.#tail;
    let finished!: () => void;
    this.#tail = new Promise((resolve) => (finished = resolve));
    try {
      await previous;
      for (;;) {
        if (abandoned()) return undefined;
        const startedAt = performance.now();
        const step = steps.next();
        this.#workedMs += performance.now() - startedAt;
        if (step.done === true) return step.value;
        this.chargeBlocks(keyId, step.value);
        if (this.#workedMs < this.#limits.workMsBeforeRest) {
          await nextTurn();
        } else {
          await rest(this.#workedMs);
          this.#workedMs = 0;
        }
      }
    } finally {
      this.#waiting--;
      if (this.#waiting === 0) this.#bucketScratch = undefined;
      finished();
    }
  }

  /** The buffers for a bucketStatsInSlices of `percentiles` (those of the scan before it, while scans follow each other). */
  bucketScratch(percentiles: readonly number[]): BucketScratch {
    if (this.#bucketScratch?.percentiles.join() !== percentiles.join()) this.#bucketScratch = new BucketScratch(percentiles);
    return this.#bucketScratch;
  }

  /** Charges `keyId` for `blocks` read. */
  chargeBlocks(keyId: string | undefined, blocks: number): void {
    if (keyId !== undefined && blocks > 0) this.#charge(keyId, blocks / this.#limits.blocksPerRequest);
  }
}
