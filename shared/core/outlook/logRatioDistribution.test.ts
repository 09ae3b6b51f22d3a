import assert from "node:assert/strict";
import { test } from "node:test";
import { logRatioDistribution, QUANTILE_LEVELS } from "./logRatioDistribution.ts";

const levels = [0.1, 0.5, 0.9];

test("a quantile table's two answers are monotone and inverse to each other, tails included", () => {
  const forecast = logRatioDistribution(levels, [Math.log(0.5), Math.log(0.8), Math.log(1.1)]);
  assert.ok(Math.abs(forecast.quantileRatio(0.5) - 0.8) < 1e-12);
  assert.ok(Math.abs(forecast.probabilityAtOrBelow(0.8) - 0.5) < 1e-12);
  let previousRatio = 0;
  for (let q = 0.001; q < 1; q += 0.001) {
    const ratio = forecast.quantileRatio(q);
    assert.ok(ratio > previousRatio, `quantile ${q} increases`);
    assert.ok(Math.abs(forecast.probabilityAtOrBelow(ratio) - q) < 1e-9, `probability of the ${q}-quantile is ${q}`);
    previousRatio = ratio;
  }
  let previousProbability = 0;
  for (let ratio = 0.01; ratio < 3; ratio += 0.01) {
    const probability = forecast.probabilityAtOrBelow(ratio);
    assert.ok(probability >= previousProbability && probability >= 0 && probability <= 1);
    previousProbability = probability;
  }
  assert.equal(forecast.probabilityAtOrBelow(0), 0);
  assert.equal(forecast.probabilityAtOrBelow(Number.POSITIVE_INFINITY), 1);
});

test("a noisy table is made monotone, and a flat one (a chain whose fee never moves) is a step at its value", () => {
  const noisy = logRatioDistribution(levels, [0, -0.2, 0.1]);
  assert.ok(noisy.quantileRatio(0.5) >= noisy.quantileRatio(0.1));
  const flat = logRatioDistribution(
    QUANTILE_LEVELS,
    QUANTILE_LEVELS.map(() => 0),
  );
  assert.equal(flat.quantileRatio(0.001), 1);
  assert.equal(flat.quantileRatio(0.999), 1);
  assert.equal(flat.probabilityAtOrBelow(0.999), 0);
  assert.equal(flat.probabilityAtOrBelow(1), 1, "at or below: the fee itself counts");
});

test("answers stay finite and positive however wild the table, and bad questions are refused", () => {
  const wild = logRatioDistribution(levels, [Number.NEGATIVE_INFINITY, Number.NaN, Number.POSITIVE_INFINITY]);
  for (const q of [1e-9, 0.5, 1 - 1e-9]) {
    const ratio = wild.quantileRatio(q);
    assert.ok(Number.isFinite(ratio) && ratio > 0);
  }
  const forecast = logRatioDistribution(levels, [-1, -0.5, 0]);
  assert.throws(() => forecast.quantileRatio(0), RangeError);
  assert.throws(() => forecast.quantileRatio(1), RangeError);
  assert.throws(() => forecast.probabilityAtOrBelow(Number.NaN), RangeError);
  assert.throws(() => logRatioDistribution([0.5], [0]), RangeError);
});
