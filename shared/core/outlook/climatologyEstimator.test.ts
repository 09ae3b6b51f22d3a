import assert from "node:assert/strict";
import { test } from "node:test";
import { createClimatologyEstimator } from "./climatologyEstimator.ts";
import { summarizeHour } from "./summarizeHour.ts";

const HOUR = 3_600;

test("the placeholder's forecast is the distribution of lowest / current over the past horizons it has seen whole", () => {
  const estimator = createClimatologyEstimator();
  const moment = { timestamp: 0, baseFee: 1n };
  assert.equal(estimator.forecast(moment, 1).probabilityAtOrBelow(0.9), 0.5, "nothing seen: an even chance");
  // Hours 0..4, min and last: (10, 10), (8, 20), (20, 20), (5, 10), (10, 10).
  const hours = [
    [10n, 10n],
    [8n, 20n],
    [20n, 20n],
    [5n, 10n],
    [10n, 10n],
  ] as const;
  hours.forEach(([min, last], hour) => estimator.observe(summarizeHour(hour * HOUR, [min, last])));
  // H = 1 h: the ends of hours 0..3 with the next hour's min: 8/10, 20/20, 5/20, 10/10.
  const oneHour = estimator.forecast(moment, 1);
  assert.equal(oneHour.probabilityAtOrBelow(0.8), 2 / 4);
  assert.equal(oneHour.probabilityAtOrBelow(0.25), 1 / 4);
  assert.equal(oneHour.probabilityAtOrBelow(1), 1);
  assert.equal(oneHour.quantileRatio(0.5), 0.8);
  assert.equal(oneHour.quantileRatio(0.1), 0.25);
  // H = 2 h: min(8, 20)/10, min(20, 5)/20, min(5, 10)/20.
  assert.equal(estimator.forecast(moment, 2).probabilityAtOrBelow(0.25), 2 / 3);
  assert.throws(() => estimator.observe(summarizeHour(4 * HOUR, [1n])), /oldest first/);
});

test("it forgets horizons older than its 28 days", () => {
  const estimator = createClimatologyEstimator(1);
  for (let hour = 0; hour < 48; hour += 1) {
    estimator.observe(summarizeHour(hour * HOUR, [hour < 12 && hour % 2 === 1 ? 1n : 100n]));
    if (hour === 12) assert.equal(estimator.forecast({ timestamp: 13 * HOUR, baseFee: 100n }, 1).probabilityAtOrBelow(0.5), 6 / 12);
  }
  // The last day's horizons never fell; the first hours' (falling to 0.01 every other hour) are gone.
  assert.equal(estimator.forecast({ timestamp: 48 * HOUR, baseFee: 100n }, 1).probabilityAtOrBelow(0.5), 0);
});
