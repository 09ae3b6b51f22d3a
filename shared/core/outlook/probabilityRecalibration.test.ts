import assert from "node:assert/strict";
import { test } from "node:test";
import { QUANTILE_LEVELS } from "./logRatioDistribution.ts";
import { createProbabilityRecalibration } from "./probabilityRecalibration.ts";

test("before any forecast, and for forecasts that were right as often as they said, it changes nothing", () => {
  const fresh = createProbabilityRecalibration(1000, 50, 10);
  assert.ok(Math.abs(fresh.map(0.3) - 0.3) < 1e-12);
  assert.deepEqual(Array.from(fresh.inverseOfLevels), [...QUANTILE_LEVELS]);
  const honest = createProbabilityRecalibration(1000, 50, 10);
  for (let i = 0; i < 1000; i++) {
    const probability = 0.1 + 0.8 * ((i * 0.618) % 1);
    honest.add(probability, (i * 0.381) % 1 < probability);
  }
  for (const probability of [0.2, 0.5, 0.8]) assert.ok(Math.abs(honest.map(probability) - probability) < 0.05, `${probability} -> ${honest.map(probability)}`);
});

test("forecasts that said 80% when it happened half the time are brought down, and the map stays increasing and invertible", () => {
  const recalibration = createProbabilityRecalibration(1000, 50, 10);
  for (let i = 0; i < 1000; i++) recalibration.add(0.8, i % 2 === 0);
  assert.ok(Math.abs(recalibration.map(0.8) - 0.5) < 0.05, `0.8 -> ${recalibration.map(0.8)}`);
  let previous = 0;
  for (let p = 0.01; p < 1; p += 0.01) {
    const mapped = recalibration.map(p);
    assert.ok(mapped > previous, "increasing");
    assert.ok(Math.abs(recalibration.inverse(mapped) - p) < 1e-9, "inverse");
    previous = mapped;
  }
  assert.equal(recalibration.map(0), 0);
  assert.equal(recalibration.map(1), 1);
});

test("the fit is spread over the adds: none visits more than its slice of the kept forecasts, and it still converges", () => {
  const capacity = 6000;
  const refitEvery = 60;
  const recalibration = createProbabilityRecalibration(capacity, refitEvery, 10);
  const slice = Math.ceil((3 * capacity) / refitEvery);
  for (let i = 0; i < 3 * capacity; i++) {
    const before = recalibration.work;
    recalibration.add(0.8, i % 2 === 0);
    assert.ok(recalibration.work - before <= slice, `add ${i} visited ${recalibration.work - before} > ${slice}`);
  }
  assert.ok(Math.abs(recalibration.map(0.8) - 0.5) < 0.02, `0.8 -> ${recalibration.map(0.8)}`);
});
