import assert from "node:assert/strict";
import { test } from "node:test";
import { RateLimiter } from "./rateLimiter.ts";

test("a burst, then refusals with a Retry-After, then recovery at the refill rate", () => {
  const limiter = new RateLimiter({ requestsPerSecond: 2, burst: 3 });
  const at = 1_000_000;
  assert.deepEqual(
    [1, 2, 3].map(() => limiter.take("k", at).ok),
    [true, true, true],
  );
  assert.deepEqual(limiter.take("k", at), { ok: false, retryAfterSeconds: 1 });
  assert.equal(limiter.take("k", at + 499).ok, false);
  assert.equal(limiter.take("k", at + 500).ok, true);
  assert.equal(limiter.take("k", at + 500).ok, false);
});

test("Retry-After is whole seconds, rounded up, at least 1", () => {
  const limiter = new RateLimiter({ requestsPerSecond: 0.25, burst: 1 });
  assert.equal(limiter.take("k", 0).ok, true);
  assert.deepEqual(limiter.take("k", 0), { ok: false, retryAfterSeconds: 4 });
  assert.deepEqual(limiter.take("k", 1_000), { ok: false, retryAfterSeconds: 3 });
});

test("keys have their own buckets", () => {
  const limiter = new RateLimiter({ requestsPerSecond: 1, burst: 1 });
  assert.equal(limiter.take("a", 0).ok, true);
  assert.equal(limiter.take("a", 0).ok, false);
  assert.equal(limiter.take("b", 0).ok, true);
});

test("0 requests per second turns the limit off; a clock stepping back refills nothing", () => {
  const off = new RateLimiter({ requestsPerSecond: 0, burst: 1 });
  for (let i = 0; i < 1000; i++) assert.equal(off.take("k", 0).ok, true);
  const limiter = new RateLimiter({ requestsPerSecond: 1, burst: 1 });
  assert.equal(limiter.take("k", 10_000).ok, true);
  assert.equal(limiter.take("k", 0).ok, false);
  assert.equal(limiter.take("k", 10_999).ok, false);
  assert.equal(limiter.take("k", 11_000).ok, true);
});

test("a nonsense limit is refused", () => {
  assert.throws(() => new RateLimiter({ requestsPerSecond: -1, burst: 1 }), RangeError);
  assert.throws(() => new RateLimiter({ requestsPerSecond: 1, burst: 0 }), RangeError);
  assert.throws(() => new RateLimiter({ requestsPerSecond: Number.NaN, burst: 1 }), RangeError);
});

test("work charged beyond a request's token is owed: the key waits until its bucket is back at one", () => {
  const limiter = new RateLimiter({ requestsPerSecond: 10, burst: 10 });
  assert.equal(limiter.take("k", 0).ok, true);
  limiter.charge("k", 29, 0);
  // 10 - 1 - 29 = -20 tokens: 21 to refill, 2.1 s at 10 a second.
  assert.deepEqual(limiter.take("k", 0), { ok: false, retryAfterSeconds: 3 });
  assert.equal(limiter.take("k", 2_099).ok, false);
  assert.equal(limiter.take("k", 2_100).ok, true);
  assert.equal(limiter.take("other", 0).ok, true);
});
