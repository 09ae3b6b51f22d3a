import assert from "node:assert/strict";
import { test } from "node:test";
import { lowestWithinFromSamples, lowestWithinFromSummaries, momentsFromSamples, momentsFromSummaries } from "./backtestMoments.ts";
import type { FeeSample } from "./feeSample.ts";
import { summarizeByHour } from "./summarizeHour.ts";

const HOUR = 3_600;
const H0 = 1_699_999_200; // an hour's start

// Hours 0, 1, 3, 4 and 10 hold samples; one sample falls exactly on an hour's end, one on another's start.
const SAMPLES: FeeSample[] = [
  { timestamp: H0 + 600, baseFee: 10n },
  { timestamp: H0 + HOUR, baseFee: 8n }, // exactly at the end of hour 0
  { timestamp: H0 + HOUR + 1_400, baseFee: 12n },
  { timestamp: H0 + 3 * HOUR + 10, baseFee: 5n },
  { timestamp: H0 + 4 * HOUR, baseFee: 7n }, // exactly at the end of hour 3
  { timestamp: H0 + 10 * HOUR + 1, baseFee: 9n },
];
const ends = [1, 2, 4, 5, 11].map((hour) => H0 + hour * HOUR);
const numbers = (values: Float64Array) => Array.from(values, (value) => (Number.isNaN(value) ? null : value));

test("moments are the ends of the sampled hours, the current fee the newest sample at or before each", () => {
  const moments = momentsFromSamples(SAMPLES, summarizeByHour(SAMPLES));
  assert.deepEqual(Array.from(moments.times), ends);
  assert.deepEqual(moments.current, [8n, 12n, 7n, 7n, 9n]);
  assert.equal(moments.knownUntil, H0 + 11 * HOUR);
});

test("the outcome is the lowest sample in (t, t + H]: none there, or past the data, is unknown", () => {
  const moments = momentsFromSamples(SAMPLES, summarizeByHour(SAMPLES));
  // (t, t + 1h]: the sample at t itself is not after t.
  assert.deepEqual(numbers(lowestWithinFromSamples(SAMPLES, moments, 1)), [12, null, null, null, null]);
  // (t, t + 3h] holds the sample at t + 3h exactly.
  assert.deepEqual(numbers(lowestWithinFromSamples(SAMPLES, moments, 3)), [5, 5, null, null, null]);
  assert.deepEqual(numbers(lowestWithinFromSamples(SAMPLES, moments, 6)), [5, 5, null, 9, null]);
});

test("from summaries alone, the outcome is the least min of the hours starting in [t, t + H)", () => {
  const hours = summarizeByHour(SAMPLES);
  const moments = momentsFromSummaries(hours);
  assert.deepEqual(Array.from(moments.times), ends);
  assert.deepEqual(moments.current, [10n, 12n, 5n, 7n, 9n]); // each hour's last (the sample at t belongs to the next hour)
  assert.deepEqual(numbers(lowestWithinFromSummaries(hours, moments, 1)), [8, null, 7, null, null]);
  assert.deepEqual(numbers(lowestWithinFromSummaries(hours, moments, 3)), [5, 5, 7, null, null]);
  assert.deepEqual(numbers(lowestWithinFromSummaries(hours, moments, 6)), [5, 5, 7, 9, null]);
});
