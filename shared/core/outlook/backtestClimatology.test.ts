import assert from "node:assert/strict";
import { test } from "node:test";
import { climatology, CLIMATOLOGY_WITHOUT_HISTORY } from "./backtestClimatology.ts";
import type { BacktestMoments } from "./backtestMoments.ts";

const HOUR = 3_600;
const DAY = 86_400;

function moments(times: number[], current: number[]): BacktestMoments {
  return {
    times: Float64Array.from(times),
    current: current.map(BigInt),
    currentNumber: Float64Array.from(current),
    knownUntil: times[times.length - 1]! + HOUR,
  };
}

test("the climatology at t is the share of earlier moments s in [t - 28 d, t - H] whose event happened, unknown outcomes left out", () => {
  const times = [1, 2, 3, 4, 5].map((hour) => hour * HOUR);
  times.push(HOUR + 28 * DAY + HOUR); // its window starts at 2 h: the first moment has left it
  const series = moments(times, [100, 100, 100, 100, 100, 100]);
  // Events at ratio 0.9: yes, unknown, no, yes, no, (unknown).
  const lowest = Float64Array.from([50, Number.NaN, 95, 80, 100, Number.NaN]);
  const { probability, withoutHistory } = climatology(series, lowest, 2, 0.9, 0);
  assert.deepEqual(Array.from(probability), [CLIMATOLOGY_WITHOUT_HISTORY, CLIMATOLOGY_WITHOUT_HISTORY, 1, 1, 0.5, 1 / 3]);
  assert.deepEqual(Array.from(withoutHistory), [1, 1, 0, 0, 0, 0]);
  // From a later first moment, the earlier moments still count as history.
  assert.deepEqual(Array.from(climatology(series, lowest, 2, 0.9, 3).probability), [1, 0.5, 1 / 3]);
});

test("an outcome whose horizon ends after t is not yet known at t, and each moment's own fee sets its threshold", () => {
  const times = [1, 2, 3, 4].map((hour) => hour * HOUR);
  const series = moments(times, [100, 200, 100, 100]);
  const lowest = Float64Array.from([85, 170, 95, 95]);
  // H = 1 h at t = 3 h: s = 1 h and 2 h are known (s + H <= t); 85 <= 90 yes, 170 <= 180 yes.
  assert.equal(climatology(series, lowest, 1, 0.9, 2).probability[0], 1);
  // H = 2 h at t = 3 h: only s = 1 h is known.
  assert.equal(climatology(series, lowest, 2, 0.9, 2).probability[0], 1);
  // At ratio 0.85: 85 <= 85 yes (at or below), 170 <= 170 yes, 95 no.
  assert.deepEqual(Array.from(climatology(series, lowest, 1, 0.85, 2).probability), [1, 2 / 3]);
});
