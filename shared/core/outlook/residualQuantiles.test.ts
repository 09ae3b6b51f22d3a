import assert from "node:assert/strict";
import { test } from "node:test";
import { QUANTILE_LEVELS } from "./logRatioDistribution.ts";
import { createResidualQuantiles, MIN_RESIDUALS } from "./residualQuantiles.ts";

const median = QUANTILE_LEVELS.indexOf(0.5);

test("before enough errors the shape is a Laplace of mean absolute value 1; then the kept errors' own quantiles", () => {
  const errors = createResidualQuantiles(100, 10);
  assert.equal(Math.abs(errors.quantiles[median] as number), 0);
  assert.ok(Math.abs((errors.quantiles[0] as number) - Math.log(0.01)) < 1e-12);
  for (let i = 0; i < MIN_RESIDUALS - 1; i++) errors.add(5);
  assert.equal(Math.abs(errors.quantiles[median] as number), 0, "still the default one short of the minimum");
  errors.add(5);
  assert.equal(errors.quantiles[median], 5);
});

test("only the newest errors count, and the quantiles are refreshed every so many", () => {
  const errors = createResidualQuantiles(100, 10);
  for (let i = 0; i < 98; i++) errors.add(i); // refreshed at the 48th, then every 10th: the last at the 98th
  assert.ok(Math.abs((errors.quantiles[median] as number) - 48.5) < 1e-9);
  for (let i = 0; i < 9; i++) errors.add(1000);
  assert.ok(Math.abs((errors.quantiles[median] as number) - 48.5) < 1e-9, "not refreshed before ten new ones");
  errors.add(1000); // the 100 kept: 8..97 and ten of 1000
  assert.ok(Math.abs((errors.quantiles[median] as number) - 57.5) < 1e-9, "the oldest replaced by the newest");
});

test("no add sorts the kept errors: each costs two binary searches and one move, however many are kept", () => {
  const capacity = 1000;
  const errors = createResidualQuantiles(capacity, 24);
  const bound = capacity + 2 * Math.ceil(Math.log2(capacity + 1)) + 2 * QUANTILE_LEVELS.length;
  let state = 7;
  for (let i = 0; i < 5 * capacity; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const before = errors.work;
    errors.add(state / 2_147_483_648 - 0.5);
    assert.ok(errors.work - before <= bound, `add ${i} did ${errors.work - before} > ${bound}`);
  }
  const kept = Array.from({ length: capacity }, (_, i) => i);
  for (const value of kept) errors.add(value); // refreshed at the last of them (5,000 + 1,000 adds, a multiple of 24)
  assert.ok(Math.abs((errors.quantiles[median] as number) - 499.5) < 1e-9, "the sorted errors are the kept ones");
});
