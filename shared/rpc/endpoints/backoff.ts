/**
 * The one backoff policy: how long to leave something that failed (an RPC endpoint of the live feed or of the
 * backfill, a webhook's receiver) before asking it again, and how a Retry-After it sent is honoured.
 */
import { RpcEndpointError } from "../connection/errors.ts";

export interface BackoffOptions {
  /** The wait after the first failure. */
  readonly initialMs: number;
  /** The longest wait the backoff reaches by itself. */
  readonly maxMs: number;
  /** Each further failure in a row multiplies the wait by this; default 2 (it doubles). */
  readonly factor?: number;
  /** The longest wait a Retry-After may ask for; default `maxMs`. */
  readonly maxRetryAfterMs?: number;
}

/** An RPC endpoint's (the live feed's and the backfill's): 1 s doubling to 60 s, a Retry-After honoured up to 60 s. */
export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 60_000 };

/** The longest wait an answer may ask for at all (RpcEndpointError.retryAfterMs): a hostile one cannot park a caller longer. */
const MAX_ASKED_RETRY_AFTER_MS = 3_600_000;

/**
 * The wait after `failuresInARow` (1 or more) failures: `initialMs × factor^(failuresInARow − 1)`, at most `maxMs`.
 * When the failure asked for a wait (`retryAfterMs`, a 429's or 503's Retry-After), it is honoured up to
 * `maxRetryAfterMs`: never sooner than the answer asked within that bound, never sooner than the backoff's own wait.
 */
export function backoffMs(failuresInARow: number, options: BackoffOptions, retryAfterMs?: number): number {
  const { initialMs, maxMs, factor, maxRetryAfterMs } = checkedBackoff(options);
  const exponentialMs = Math.min(maxMs, initialMs * factor ** Math.min(Math.max(0, failuresInARow - 1), 64));
  if (retryAfterMs === undefined || !(retryAfterMs > 0)) return exponentialMs;
  return Math.max(exponentialMs, Math.min(retryAfterMs, maxRetryAfterMs));
}

/** The options with their defaults filled in; throws RangeError for a backoff that cannot be honoured. */
export function checkedBackoff(options: BackoffOptions): Required<BackoffOptions> {
  const { initialMs, maxMs, factor = 2, maxRetryAfterMs = maxMs } = options;
  if (!(initialMs > 0) || !(maxMs >= initialMs)) {
    throw new RangeError(`a backoff waits a positive time, at most its longest wait (got ${initialMs} ms up to ${maxMs} ms)`);
  }
  if (!(factor >= 1) || !Number.isFinite(factor)) throw new RangeError(`a backoff's wait grows by a factor of 1 or more (got ${factor})`);
  if (!(maxRetryAfterMs >= 0)) throw new RangeError(`a backoff honours a Retry-After for 0 ms or more (got ${maxRetryAfterMs} ms)`);
  return { initialMs, maxMs, factor, maxRetryAfterMs };
}

/** How long a failure asked to be left alone: an RpcEndpointError's Retry-After, when it carried one. */
export function retryAfterOf(error: unknown): number | undefined {
  return error instanceof RpcEndpointError ? error.retryAfterMs : undefined;
}

/**
 * How long an HTTP answer asks to be left alone: a 429's or 503's Retry-After header (seconds, or an HTTP date after
 * `nowMs`), in ms, at most an hour; undefined for another status, or without a header that says a wait.
 */
export function retryAfterMs(status: number, header: string, nowMs: number): number | undefined {
  if (status !== 429 && status !== 503) return undefined;
  const text = header.trim();
  if (/^[0-9]{1,10}$/.test(text)) return Math.min(MAX_ASKED_RETRY_AFTER_MS, Number(text) * 1_000);
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) && at > nowMs ? Math.min(MAX_ASKED_RETRY_AFTER_MS, at - nowMs) : undefined;
}
