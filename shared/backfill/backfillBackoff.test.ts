import assert from "node:assert/strict";
import { test } from "node:test";
import { backfillBackoffMs } from "./backfillBackoff.ts";

const options = { initialMs: 1000, maxMs: 60_000 };

test("the wait doubles with each failure in a row, up to the longest", () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8, 100].map((failures) => backfillBackoffMs(failures, options)),
    [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000],
  );
});

test("a Retry-After is honoured, never past the longest wait, never shortening the backoff", () => {
  assert.equal(backfillBackoffMs(1, options, 5000), 5000);
  assert.equal(backfillBackoffMs(4, options, 5000), 8000);
  assert.equal(backfillBackoffMs(1, options, 3_600_000), 60_000);
  assert.equal(backfillBackoffMs(1, options, 0), 1000);
  assert.equal(backfillBackoffMs(1, options, Number.NaN), 1000);
  assert.throws(() => backfillBackoffMs(1, { initialMs: 0, maxMs: 1 }), RangeError);
  assert.throws(() => backfillBackoffMs(1, { initialMs: 10, maxMs: 1 }), RangeError);
});
