import type { RateLimit } from "../config/serviceDefaults.ts";

export type { RateLimit };

export type RateDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedAtMs: number;
}

const ALLOWED: RateDecision = Object.freeze({ ok: true });

/** Above this many buckets, full (idle) ones are dropped; a full bucket is the same as no bucket. */
const PRUNE_ABOVE_BUCKETS = 1000;

/** A token bucket per key id: `burst` tokens, refilled at `requestsPerSecond`, one taken per request. */
export class RateLimiter {
  readonly #limit: RateLimit;
  readonly #buckets = new Map<string, Bucket>();

  constructor(limit: RateLimit) {
    if (!(limit.requestsPerSecond >= 0) || !(limit.burst >= 1)) {
      throw new RangeError(`a rate limit needs requestsPerSecond >= 0 and burst >= 1 (got ${limit.requestsPerSecond}, ${limit.burst})`);
    }
    this.#limit = limit;
  }

  take(keyId: string, nowMs: number): RateDecision {
    const { requestsPerSecond } = this.#limit;
    if (requestsPerSecond === 0) return ALLOWED;
    const bucket = this.#refilledBucket(keyId, nowMs);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return ALLOWED;
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / requestsPerSecond)) };
  }

  /**
   * Takes `tokens` more from the key's bucket for work a request did beyond its own token (a history scan's blocks,
   * historyScans.ts): the bucket may go below zero, and the key's next requests wait until it has refilled to one.
   */
  charge(keyId: string, tokens: number, nowMs: number): void {
    if (this.#limit.requestsPerSecond === 0 || !(tokens > 0)) return;
    this.#refilledBucket(keyId, nowMs).tokens -= tokens;
  }

  /** The key's bucket (a full one for a key not seen, or seen long ago), refilled to `nowMs`. */
  #refilledBucket(keyId: string, nowMs: number): Bucket {
    let bucket = this.#buckets.get(keyId);
    if (bucket === undefined) {
      if (this.#buckets.size >= PRUNE_ABOVE_BUCKETS) this.#prune(nowMs);
      bucket = { tokens: this.#limit.burst, updatedAtMs: nowMs };
      this.#buckets.set(keyId, bucket);
    }
    this.#refill(bucket, nowMs);
    return bucket;
  }

  #refill(bucket: Bucket, nowMs: number): void {
    // A clock that steps back refills nothing rather than draining.
    const elapsedMs = Math.max(0, nowMs - bucket.updatedAtMs);
    bucket.tokens = Math.min(this.#limit.burst, bucket.tokens + (elapsedMs / 1000) * this.#limit.requestsPerSecond);
    bucket.updatedAtMs = Math.max(bucket.updatedAtMs, nowMs);
  }

  #prune(nowMs: number): void {
    for (const [keyId, bucket] of this.#buckets) {
      this.#refill(bucket, nowMs);
      if (bucket.tokens >= this.#limit.burst) this.#buckets.delete(keyId);
    }
  }
}
