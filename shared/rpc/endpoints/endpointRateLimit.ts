/**
 * An endpoint's rate limit: at most `requestsPerSecond` requests in any window of one second (a fractional rate: one
 * request per 1/rate seconds), on a clock the caller gives (monotonic milliseconds). Infinity lifts the cap. The caller
 * asks `waitMs`, waits that long, and records each request when it sends it.
 */
export class EndpointRateLimit {
  readonly #windowMs: number;
  /** The send times of the newest requests, at most as many as the window allows; oldest first. */
  readonly #sentAtMs: number[] = [];
  readonly #perWindow: number;

  constructor(requestsPerSecond: number) {
    if (!(requestsPerSecond > 0)) throw new RangeError(`a request rate is positive (got ${requestsPerSecond} per second)`);
    const whole = Number.isInteger(requestsPerSecond) || requestsPerSecond === Number.POSITIVE_INFINITY;
    this.#perWindow = whole ? requestsPerSecond : 1;
    this.#windowMs = whole ? 1000 : 1000 / requestsPerSecond;
  }

  /** How long to wait from `nowMs` until a request may be sent; 0 when one may go now. */
  waitMs(nowMs: number): number {
    if (this.#sentAtMs.length < this.#perWindow) return 0;
    return Math.max(0, this.#sentAtMs[0]! + this.#windowMs - nowMs);
  }

  /** Counts a request sent at `nowMs`. */
  record(nowMs: number): void {
    if (this.#perWindow === Number.POSITIVE_INFINITY) return;
    this.#sentAtMs.push(nowMs);
    if (this.#sentAtMs.length > this.#perWindow) this.#sentAtMs.shift();
  }
}
