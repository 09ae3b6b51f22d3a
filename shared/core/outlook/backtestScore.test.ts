import assert from "node:assert/strict";
import { test } from "node:test";
import { outlookBacktestSchema } from "../../wire/outlook.ts";
import { calibrationError, emptyReliabilityTally, reliabilityBinOf, tallyForecast } from "./backtestReliability.ts";
import { emptyScoreTally, scoreOf, tallyScore } from "./backtestScore.ts";

test("a probability falls in its tenth, as written: [0, 0.1) ... [0.9, 1]", () => {
  assert.deepEqual([0, 0.0999, 0.1, 0.3, 0.7, 0.9, 0.95, 1].map(reliabilityBinOf), [0, 0, 1, 3, 7, 9, 9, 9]);
});

test("Brier, the climatology's Brier, skill, base rate and reliability of a hand-made question", () => {
  const tally = emptyScoreTally();
  // Four forecasts: 0.8 (happened), 0.8 (not), 0.15 (not), 0.15 (not); the climatology said 0.5 each time.
  tallyScore(tally, 0.8, 0.5, true);
  tallyScore(tally, 0.8, 0.5, false);
  tallyScore(tally, 0.15, 0.5, false);
  tallyScore(tally, 0.15, 0.5, false);
  const score = scoreOf(tally);
  assert.equal(score.forecasts, 4);
  assert.equal(score.baseRate, 0.25);
  assert.ok(Math.abs(score.brier! - (0.04 + 0.64 + 0.0225 + 0.0225) / 4) < 1e-12);
  assert.equal(score.brierClimatology, 0.25);
  assert.ok(Math.abs(score.skill! - (1 - 0.18125 / 0.25)) < 1e-12);
  assert.deepEqual(score.reliability[1], { from: 0.1, to: 0.2, forecasts: 2, meanProbability: 0.15, observed: 0 });
  assert.deepEqual(score.reliability[8], { from: 0.8, to: 0.9, forecasts: 2, meanProbability: 0.8, observed: 0.5 });
  assert.equal(score.reliability[0]!.meanProbability, null);
  // Forecast-weighted mean of |mean probability - observed|: (2 x 0.15 + 2 x 0.3) / 4.
  assert.ok(Math.abs(score.calibrationError! - 0.225) < 1e-12);
  assert.ok(outlookBacktestSchema.safeParse({ ...score, tally: undefined, baseRate: undefined, calibrationError: undefined }).success === false);
  const { forecasts, brier, brierClimatology, skill, reliability } = score;
  assert.ok(outlookBacktestSchema.safeParse({ forecasts, brier, brierClimatology, skill, reliability }).success);
});

test("a calibration error of 0 for forecasts that happen as often as they say; none without forecasts", () => {
  const tally = emptyReliabilityTally();
  for (let i = 0; i < 10; i += 1) tallyForecast(tally, 0.3, i < 3);
  assert.ok(Math.abs(calibrationError(tally)!) < 1e-12);
  assert.equal(calibrationError(emptyReliabilityTally()), null);
  assert.equal(scoreOf(emptyScoreTally()).skill, null);
});
