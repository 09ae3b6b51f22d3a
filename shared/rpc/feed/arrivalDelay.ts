/** Steps of the delay, as fractions of the block spacing: later by 1/16 after a miss, earlier by 1/128 after a find. */
const LATER_STEP = 1 / 16;
const EARLIER_STEP = 1 / 128;
/**
 * Until a first miss, and after this many finds in a row (the delay may have drifted far), the delay seeks earlier:
 * by an eighth, then doubling with each find, up to a quarter (a delay first known only as an upper bound, from polls
 * on a fixed interval, may be most of a block time late).
 */
const SEEK_STEP = 1 / 8;
const MAX_SEEK_STEP = 1 / 4;
const FOUND_IN_ROW_TO_SEEK = 32;
/** A poll sent this close after the delay (a fraction of the spacing) was sent at the delay. */
const AT_DELAY = 1 / 16;
/** Clocks and timers round: a poll sent this little (a fraction of the spacing) before the delay was sent at it. */
const ROUNDING = 1 / 64;

/**
 * How late after its timestamp a block appears at one endpoint, learned from the polls that looked for it: the delay
 * after a block's timestamp at which a poll finds it there most of the time (about eight times in nine: the steps'
 * ratio, 1/16 later against 1/128 earlier, makes the delay settle where misses are one in nine).
 *
 * A poll only tells whether the block was there when the poll was sent, so the delay is found by probing: each block
 * found by the poll sent at the delay moves the delay a little earlier; each block missed there moves it later, at
 * least past the moment of the miss, never past the moment it was found. The delay includes how far the chain's clock
 * is from the local one, so it may be negative.
 */
export class ArrivalDelay {
  #delayMs: number | undefined;
  #missedOnce = false;
  #foundInRow = 0;

  /** The delay in ms after a block's timestamp (x 1000) to poll for it; undefined before a block was found. */
  get delayMs(): number | undefined {
    return this.#delayMs;
  }

  /**
   * Learns from a block found. All times are ms after its timestamp (x 1000): `foundMs` when the answer that had it
   * arrived, `sentMs` when that poll was sent, `missedMs` when the latest poll that did not find it was sent (if one
   * did not). `onFixedInterval`: the poll that found it was on a fixed interval, not timed by the delay (while the
   * chain's rhythm is learned): then it may well be earlier than the delay, and the delay is lowered to it at once, as
   * it is when any poll a block time or more before the delay found it (an endpoint that lagged has caught up).
   * `spacingMs` is the chain's block spacing: the steps are fractions of it.
   */
  learn(
    found: { readonly foundMs: number; readonly sentMs: number; readonly missedMs: number | undefined; readonly onFixedInterval: boolean },
    spacingMs: number,
  ): void {
    const delay = this.#delayMs;
    if (delay === undefined) {
      this.#delayMs = found.foundMs;
      return;
    }
    if (found.missedMs !== undefined && found.missedMs >= delay - ROUNDING * spacingMs) {
      // Missed at or after the delay: later, at least past the miss, never past the moment it was found.
      this.#delayMs = Math.min(found.foundMs, Math.max(delay + LATER_STEP * spacingMs, found.missedMs));
      this.#missedOnce = true;
      this.#foundInRow = 0;
      return;
    }
    if (found.sentMs > delay + AT_DELAY * spacingMs) return; // Found by a poll well after the delay: it says nothing of it.
    this.#foundInRow++;
    const seeking = this.#missedOnce ? this.#foundInRow - FOUND_IN_ROW_TO_SEEK : this.#foundInRow;
    const step = seeking > 0 ? Math.min(MAX_SEEK_STEP, SEEK_STEP * 2 ** (seeking - 1)) : EARLIER_STEP;
    // Found at the delay: a step earlier. Found by a poll before the delay that was not timed by it (on a fixed
    // interval, or a block time or more ahead of it): at least that early.
    const early = (found.onFixedInterval && found.sentMs < delay - ROUNDING * spacingMs) || found.sentMs < delay - spacingMs;
    const earlier = early ? found.foundMs : Number.POSITIVE_INFINITY;
    this.#delayMs = Math.min(delay - step * spacingMs, earlier);
  }
}
