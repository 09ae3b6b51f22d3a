import assert from "node:assert/strict";
import { test } from "node:test";
import { outlookBacktestSchema } from "../../wire/outlook.ts";
import { runBacktest } from "./backtest.ts";
import { backtestSummaries } from "./backtestSummaries.ts";
import { createClimatologyEstimator } from "./climatologyEstimator.ts";
import type { FeeSample } from "./feeSample.ts";
import { summarizeByHour } from "./summarizeHour.ts";

const HOUR = 3_600;

/** One sample in the middle of each hour for 45 days, a few hours missing: summaries then say all the samples do. */
function hourlySamples(): FeeSample[] {
  let seed = 5;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const samples: FeeSample[] = [];
  let level = 30;
  for (let hour = 0; hour < 45 * 24; hour += 1) {
    level = Math.max(2, level * Math.exp((random() - 0.5) * 0.4));
    if (random() < 0.04) continue;
    samples.push({ timestamp: 1_700_000_000 - (1_700_000_000 % HOUR) + hour * HOUR + 1_800, baseFee: BigInt(Math.round(level * 1e9)) });
  }
  return samples;
}

test("the pooled backtest of summaries is, per horizon, the samples' backtest of the same hours with its ratios pooled", () => {
  const samples = hourlySamples();
  const options = { withinHours: [1, 6, 24], ratios: [0.9, 0.75, 0.5], warmupHours: 14 * 24 };
  const fromSamples = runBacktest(samples, createClimatologyEstimator, options);
  const fromSummaries = backtestSummaries(summarizeByHour(samples), createClimatologyEstimator, options.withinHours, options);
  assert.equal(fromSummaries.length, 3);
  for (const [h, horizon] of fromSummaries.entries()) {
    assert.ok(outlookBacktestSchema.safeParse(horizon).success, JSON.stringify(horizon));
    const questions = fromSamples.questions.filter((question) => question.withinHours === options.withinHours[h]);
    const forecasts = questions.reduce((sum, question) => sum + question.forecasts, 0);
    assert.ok(forecasts > 1_000);
    assert.equal(horizon.forecasts, forecasts);
    const mean = (pick: (question: (typeof questions)[number]) => number) =>
      questions.reduce((sum, question) => sum + pick(question) * question.forecasts, 0) / forecasts;
    assert.ok(Math.abs(horizon.brier! - mean((question) => question.brier!)) < 1e-12);
    assert.ok(Math.abs(horizon.brierClimatology! - mean((question) => question.brierClimatology!)) < 1e-12);
    assert.deepEqual(
      horizon.reliability.map((bin) => bin.forecasts),
      questions[0]!.reliability.map((_, bin) => questions.reduce((sum, question) => sum + question.reliability[bin]!.forecasts, 0)),
    );
  }
});

test("too few summaries for the warm-up: no forecast, and a body the schema still takes", () => {
  const [horizon] = backtestSummaries(summarizeByHour(hourlySamples().slice(0, 100)), createClimatologyEstimator, [6]);
  assert.equal(horizon!.forecasts, 0);
  assert.equal(horizon!.brier, null);
  assert.equal(horizon!.skill, null);
  assert.ok(outlookBacktestSchema.safeParse(horizon).success);
});
