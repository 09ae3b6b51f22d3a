import assert from "node:assert/strict";
import { test } from "node:test";
import { createForgettingRidge } from "./forgettingRidge.ts";

test("it recovers a linear relation, predicts 0 before any observation, and follows a changed one by forgetting", () => {
  const ridge = createForgettingRidge(2, 50, 0.01);
  assert.equal(ridge.predict(Float64Array.of(1, 3)), 0);
  for (let i = 0; i < 400; i++) {
    const x = (i % 11) - 5;
    ridge.add(Float64Array.of(1, x), 2 + 0.5 * x);
  }
  assert.ok(Math.abs(ridge.predict(Float64Array.of(1, 4)) - 4) < 1e-3);
  for (let i = 0; i < 1000; i++) {
    const x = (i % 11) - 5;
    ridge.add(Float64Array.of(1, x), -1 - x);
  }
  assert.ok(Math.abs(ridge.predict(Float64Array.of(1, 4)) - -5) < 1e-3, "the old relation is forgotten");
  assert.ok(ridge.weight < 50 / Math.LN2 + 1, "the effective weight is bounded by the half-life");
});

test("the penalty pulls slopes towards 0 when there is little data, never the intercept", () => {
  const ridge = createForgettingRidge(2, 1000, 100);
  ridge.add(Float64Array.of(1, 1), 11);
  ridge.add(Float64Array.of(1, -1), 9);
  const slope = (ridge.predict(Float64Array.of(1, 1)) - ridge.predict(Float64Array.of(1, -1))) / 2;
  assert.ok(slope > 0 && slope < 0.1);
  assert.ok(Math.abs(ridge.predict(Float64Array.of(1, 0)) - 10) < 1e-2);
});
