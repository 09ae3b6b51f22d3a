import assert from "node:assert/strict";
import { test } from "node:test";
import { backoffMs, checkedBackoff, DEFAULT_BACKOFF, retryAfterMs, retryAfterOf } from "./backoff.ts";
import { RpcEndpointError } from "../connection/errors.ts";

const options = { initialMs: 1000, maxMs: 60_000 };

test("the wait doubles with each failure in a row, up to the longest", () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8, 100].map((failures) => backoffMs(failures, options)),
    [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000],
  );
  assert.equal(backoffMs(10_000, options), 60_000, "no overflow however many failures");
});

test("a Retry-After is honoured, never past the longest wait, never shortening the backoff", () => {
  assert.equal(backoffMs(1, options, 5000), 5000);
  assert.equal(backoffMs(4, options, 5000), 8000);
  assert.equal(backoffMs(1, options, 3_600_000), 60_000);
  assert.equal(backoffMs(1, options, 0), 1000);
  assert.equal(backoffMs(1, options, Number.NaN), 1000);
  assert.throws(() => backoffMs(1, { initialMs: 0, maxMs: 1 }), RangeError);
  assert.throws(() => backoffMs(1, { initialMs: 10, maxMs: 1 }), RangeError);
});

test("a Retry-After may be honoured past the backoff's own longest wait, up to its own bound", () => {
  const bounded = { initialMs: 50, maxMs: 200, maxRetryAfterMs: 2_000 };
  assert.equal(backoffMs(1, bounded), 50);
  assert.equal(backoffMs(9, bounded), 200);
  assert.equal(backoffMs(1, bounded, 1_000), 1_000);
  assert.equal(backoffMs(1, bounded, 3_600_000), 2_000);
  assert.equal(backoffMs(1, { ...bounded, maxRetryAfterMs: 0 }, 1_000), 50, "a bound of 0 ignores Retry-After");
});

test("the factor sets how fast the wait grows; an endpoint's default is 1 s doubling to 60 s", () => {
  assert.deepEqual(
    [1, 2, 3].map((failures) => backoffMs(failures, { initialMs: 10, maxMs: 1_000, factor: 3 })),
    [10, 30, 90],
  );
  // The live feed's and the backfill's: a Retry-After honoured up to 60 s too.
  assert.deepEqual(checkedBackoff(DEFAULT_BACKOFF), { initialMs: 1_000, maxMs: 60_000, factor: 2, maxRetryAfterMs: 60_000 });
  assert.throws(() => checkedBackoff({ ...options, factor: 0.5 }), /grows by a factor of 1 or more/);
  assert.throws(() => checkedBackoff({ ...options, maxRetryAfterMs: -1 }), /Retry-After for 0 ms or more/);
});

test("Retry-After is read from a 429 or a 503 only: seconds or an HTTP date, at most an hour", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  assert.equal(retryAfterMs(429, "7", now), 7_000);
  assert.equal(retryAfterMs(503, " 2 ", now), 2_000);
  assert.equal(retryAfterMs(429, "Wed, 01 Jan 2025 00:00:30 GMT", now), 30_000);
  assert.equal(retryAfterMs(429, "Tue, 31 Dec 2024 23:59:00 GMT", now), undefined, "a date past");
  assert.equal(retryAfterMs(429, "99999999", now), 3_600_000);
  assert.equal(retryAfterMs(429, "", now), undefined);
  assert.equal(retryAfterMs(429, "-5", now), undefined);
  assert.equal(retryAfterMs(500, "7", now), undefined);
  assert.equal(retryAfterMs(200, "7", now), undefined);
});

test("a failure's Retry-After is the one an RpcEndpointError carries", () => {
  assert.equal(retryAfterOf(new RpcEndpointError("http://127.0.0.1:9", "eth_chainId", "HTTP 429", undefined, 429, 7_000)), 7_000);
  assert.equal(retryAfterOf(new RpcEndpointError("http://127.0.0.1:9", "eth_chainId", "HTTP 500", undefined, 500)), undefined);
  assert.equal(retryAfterOf(new Error("HTTP 429")), undefined);
});
