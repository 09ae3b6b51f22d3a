/** How long a backfill waits before asking a failing endpoint again. */
export interface BackfillBackoffOptions {
  /** The wait after the first failure; it doubles with each further one. */
  readonly initialMs: number;
  /** The longest wait, also for a Retry-After that asks for more. */
  readonly maxMs: number;
}

export const DEFAULT_BACKFILL_BACKOFF: BackfillBackoffOptions = { initialMs: 1000, maxMs: 60_000 };

/**
 * The wait after `failuresInARow` (1 or more) failures of an endpoint: exponential and bounded. An endpoint that said
 * how long to wait (HTTP 429 with Retry-After) is not asked sooner than that, nor later than `maxMs`.
 */
export function backfillBackoffMs(failuresInARow: number, options: BackfillBackoffOptions, retryAfterMs?: number): number {
  if (!(options.initialMs > 0) || !(options.maxMs >= options.initialMs)) {
    throw new RangeError(`a backoff waits a positive time, at most its longest wait (got ${options.initialMs} ms up to ${options.maxMs} ms)`);
  }
  const exponentialMs = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(Math.max(0, failuresInARow - 1), 30));
  if (retryAfterMs === undefined || !(retryAfterMs > 0)) return exponentialMs;
  return Math.min(options.maxMs, Math.max(exponentialMs, retryAfterMs));
}
