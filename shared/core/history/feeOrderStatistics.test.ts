import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { FeeOrderStatisticsScratch } from "./feeOrderStatistics.ts";

const PERCENTILES = [10, 25, 50, 75, 90];

/** The statistics by sorting bigints and reading sorted[ceil(q/100 * N) - 1]: the contract's definition, written out. */
function sortedStatistics(fees: readonly bigint[], percentiles: readonly number[]) {
  const sorted = [...fees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    minWei: sorted[0]!,
    maxWei: sorted.at(-1)!,
    percentilesWei: percentiles.map((percentile) => sorted[Math.ceil((percentile * sorted.length) / 100) - 1]!),
  };
}

/**
 * Fees shaped as the cases that matter: real-sized base fees, consecutive values (ranks often fall on a histogram bin's
 * edge), ties, one outlier far above a narrow band, values around 2^53, any 64-bit value.
 */
const feesArbitrary = fc.oneof(
  fc.array(fc.bigInt({ min: 1_000_000_000n, max: 61_000_000_000n }), { minLength: 1, maxLength: 3000, size: "max" }),
  fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.bigInt({ min: 0n, max: 2n ** 40n })).chain(([count, first]) =>
    fc.shuffledSubarray(
      Array.from({ length: count }, (_, index) => first + BigInt(index)),
      { minLength: count, maxLength: count },
    ),
  ),
  fc.array(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { minLength: 1, maxLength: 3000, size: "max" }),
  fc.array(fc.bigInt({ min: 10_000_000n, max: 10_000_003n }), { minLength: 1, maxLength: 3000, size: "max" }),
  fc
    .tuple(
      fc.array(fc.bigInt({ min: 20_000_000_000n, max: 20_000_100_000n }), { minLength: 1, maxLength: 3000, size: "max" }),
      fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
    )
    .map(([band, outlier]) => [...band, outlier]),
  fc.array(fc.bigInt({ min: 2n ** 53n - 5n, max: 2n ** 53n + 5n }), { minLength: 1, maxLength: 300, size: "max" }),
  fc.array(fc.constantFrom(1n, 7n, 7n, 9_000_000_000n), { minLength: 1, maxLength: 3000, size: "max" }),
);

test("min, max and each nearest-rank percentile equal those of the sorted fees, for any fees", () => {
  const scratch = new FeeOrderStatisticsScratch(PERCENTILES);
  fc.assert(
    fc.property(feesArbitrary, (fees) => {
      assert.deepEqual(scratch.of(BigUint64Array.from(fees)), sortedStatistics(fees, PERCENTILES));
    }),
    { numRuns: 300 },
  );
});

test("any ascending set of percentiles is answered, 1 and 100 included", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 8 }).map((percentiles) => percentiles.sort((a, b) => a - b)),
      feesArbitrary,
      (percentiles, fees) => {
        assert.deepEqual(new FeeOrderStatisticsScratch(percentiles).of(BigUint64Array.from(fees)), sortedStatistics(fees, percentiles));
      },
    ),
    { numRuns: 150 },
  );
});

test("one scratch answers many sets in a row, large and small, each as if it were the first", () => {
  const scratch = new FeeOrderStatisticsScratch(PERCENTILES);
  const sizes = [100_000, 3, 5000, 64, 63, 1, 20_000];
  let state = 11n;
  for (const size of sizes) {
    const fees = Array.from({ length: size }, () => {
      state = (state * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
      return 1_000_000_000n + (state % 60_000_000_000n);
    });
    assert.deepEqual(scratch.of(BigUint64Array.from(fees)), sortedStatistics(fees, PERCENTILES), `${size} fees`);
  }
});

test("an empty set and percentiles that are not ascending whole numbers from 1 to 100 are refused", () => {
  assert.throws(() => new FeeOrderStatisticsScratch(PERCENTILES).of(new BigUint64Array(0)), /at least one fee/);
  assert.throws(() => new FeeOrderStatisticsScratch([50, 10]), /must ascend/);
  assert.throws(() => new FeeOrderStatisticsScratch([0]), /1 to 100/);
  assert.throws(() => new FeeOrderStatisticsScratch([50.5]), /whole number/);
});

test("ofInSlices yields after each slice of each of its three passes and returns what of returns", () => {
  const fees = BigUint64Array.from({ length: 100_000 }, (_, index) => 1_000_000_000n + BigInt((index * 7919) % 100_003) * 1_000n);
  const steps = new FeeOrderStatisticsScratch([10, 50, 90]).ofInSlices(fees.slice(), 1_000);
  let yields = 0;
  let step = steps.next();
  while (step.done !== true) {
    yields++;
    step = steps.next();
  }
  assert.ok(yields >= 297 && yields <= 300, `${yields} yields`);
  assert.deepEqual(step.value, new FeeOrderStatisticsScratch([10, 50, 90]).of(fees.slice()));
});
