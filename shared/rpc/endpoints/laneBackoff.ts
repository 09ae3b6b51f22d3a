import { backoffMs, checkedBackoff, type BackoffOptions } from "./backoff.ts";

/**
 * How one reader paces its own lane to one endpoint after its own failures (a page that timed out, a contract batch
 * refused): the one backoff policy (backoff.ts), counted for the lane alone, so that the backfill's or the contract
 * reads' trouble does not take the head off an endpoint that serves it well. A wait the endpoint asks for (Retry-After)
 * is the endpoint's, not the lane's: ChainEndpoints.askedToWait makes every lane wait it out.
 */
export class LaneBackoff {
  readonly #backoff: Required<BackoffOptions>;
  #failuresInARow = 0;
  #retryAt: number | undefined;

  constructor(backoff: BackoffOptions) {
    this.#backoff = checkedBackoff(backoff);
  }

  get failuresInARow(): number {
    return this.#failuresInARow;
  }

  /** Milliseconds from `now` until the lane may ask again; 0 when it may now. */
  waitMs(now: number): number {
    return Math.max(0, (this.#retryAt ?? now) - now);
  }

  /** A failure at `now`: the wait doubles with each one in a row (up to the policy's longest). Returns the wait. */
  failed(now: number): number {
    this.#failuresInARow++;
    const waitMs = backoffMs(this.#failuresInARow, this.#backoff);
    this.#retryAt = now + waitMs;
    return waitMs;
  }

  /** The lane was served: the next failure waits the shortest time again. */
  served(): void {
    this.#failuresInARow = 0;
    this.#retryAt = undefined;
  }
}
