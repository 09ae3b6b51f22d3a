import assert from "node:assert/strict";
import { test } from "node:test";
import { runBacktest } from "./backtest.ts";
import { firstForecastDifference, samplesUpTo } from "./backtestLookAhead.ts";
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";
import { createLowestFeeEstimator, MAX_WITHIN_HOURS } from "./lowestFeeEstimator.ts";
import type { LowestFeeForecast, OutlookEstimator } from "./outlookEstimator.ts";

const START = 1_704_067_200; // 2024-01-01 00:00 UTC

/**
 * A made-up but fee-like chain: log fee mean-reverting around 20 Gwei with a daily cycle and now and then a spike, one
 * sample an hour (min = p50 = last), every `gapEvery`-th hour missing. Seeded, so every run sees the same hours.
 */
function syntheticHours(count: number, gapEvery = 0): HourlySummary[] {
  let seed = 12_345;
  const uniform = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const hours: HourlySummary[] = [];
  let level = 0;
  for (let i = 0; i < count; i++) {
    level = 0.9 * level + 0.15 * (uniform() + uniform() + uniform() - 1.5) + (uniform() < 0.01 ? 1 : 0);
    if (gapEvery > 0 && i % gapEvery === gapEvery - 1) continue;
    const fee = BigInt(Math.round(20e9 * Math.exp(level + 0.2 * Math.sin((2 * Math.PI * i) / 24))));
    hours.push({ start: START + i * HOUR_SECONDS, blocks: 1, sampled: false, min: fee, p10: fee, p50: fee, p90: fee, max: fee, last: fee });
  }
  return hours;
}

function fed(hours: readonly HourlySummary[]): OutlookEstimator {
  const estimator = createLowestFeeEstimator();
  for (const hour of hours) estimator.observe(hour);
  return estimator;
}

function momentAfter(hours: readonly HourlySummary[]): { timestamp: number; baseFee: bigint } {
  const newest = hours[hours.length - 1] as HourlySummary;
  return { timestamp: newest.start + HOUR_SECONDS, baseFee: newest.last };
}

/** Probes of a forecast: its quantiles and probabilities on fixed grids. */
function probes(forecast: LowestFeeForecast): number[] {
  const quantiles = [0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99].map((q) => forecast.quantileRatio(q));
  const probabilities = [0.3, 0.5, 0.75, 0.9, 1, 1.1].map((ratio) => forecast.probabilityAtOrBelow(ratio));
  return [...quantiles, ...probabilities];
}

function assertWellFormed(forecast: LowestFeeForecast, label: string): void {
  let previousRatio = 0;
  for (let q = 0.01; q < 1; q += 0.01) {
    const ratio = forecast.quantileRatio(q);
    assert.ok(Number.isFinite(ratio) && ratio > 0, `${label}: quantile ${q} is a positive ratio`);
    assert.ok(ratio >= previousRatio, `${label}: quantiles never decrease`);
    const back = forecast.probabilityAtOrBelow(ratio);
    assert.ok(back >= q - 1e-9, `${label}: the ${q}-quantile is at or above a share ${q} (got ${back})`);
    previousRatio = ratio;
  }
  let previousProbability = 0;
  for (let ratio = 0.05; ratio <= 2; ratio += 0.05) {
    const probability = forecast.probabilityAtOrBelow(ratio);
    assert.ok(probability >= 0 && probability <= 1, `${label}: a probability`);
    assert.ok(probability >= previousProbability, `${label}: probabilities never decrease`);
    previousProbability = probability;
  }
}

test("every horizon from 1 h to 7 d gives monotone, consistent, bounded answers", () => {
  const hours = syntheticHours(60 * 24);
  const estimator = fed(hours);
  for (let within = 1; within <= MAX_WITHIN_HOURS; within++) assertWellFormed(estimator.forecast(momentAfter(hours), within), `${within} h`);
});

test("a longer horizon is never less likely to reach a threshold (the lowest over more hours is lower)", () => {
  const hours = syntheticHours(60 * 24);
  const estimator = fed(hours);
  let previous = 0;
  for (const within of [1, 2, 3, 5, 6, 10, 12, 24, 48, 100, 168]) {
    const probability = estimator.forecast(momentAfter(hours), within).probabilityAtOrBelow(0.8);
    assert.ok(probability >= previous - 0.02, `${within} h: ${probability} after ${previous}`);
    previous = probability;
  }
});

test("with no hour, one hour or a few, it answers a plain wide forecast around the fee now, never NaN", () => {
  const moment = { timestamp: START, baseFee: 20_000_000_000n };
  for (const count of [0, 1, 5, 30]) {
    const hours = syntheticHours(count);
    const estimator = fed(hours);
    for (const within of [1, 24, 168]) {
      const forecast = estimator.forecast(count === 0 ? moment : momentAfter(hours), within);
      assertWellFormed(forecast, `${count} hours, ${within} h`);
      for (const value of probes(forecast)) assert.ok(!Number.isNaN(value));
    }
  }
  const none = fed([]).forecast(moment, 1);
  assert.ok(none.quantileRatio(0.1) < 1 && none.quantileRatio(0.9) > 1, "no history: spread around the fee now");
});

test("missing hours are neither invented nor fatal, and a base fee of 0 is answered", () => {
  const hours = syntheticHours(40 * 24, 7);
  const estimator = fed(hours);
  for (const within of [1, 6, 24, 168]) assertWellFormed(estimator.forecast(momentAfter(hours), within), `gaps, ${within} h`);
  assertWellFormed(estimator.forecast({ timestamp: momentAfter(hours).timestamp + 30 * 86_400, baseFee: 0n }, 3), "a month later, fee 0");
});

test("on hours summarised from every block (lowest below newest) it learns that the lowest of the next hours is lower", () => {
  // The service's hours: each hour's newest block sits 20% above its lowest, so waiting one hour nearly always reaches 0.9.
  const hours = syntheticHours(40 * 24).map((hour) => ({ ...hour, blocks: 300, min: (hour.last * 8n) / 10n, p10: (hour.last * 85n) / 100n }));
  const estimator = fed(hours);
  const forecast = estimator.forecast(momentAfter(hours), 1);
  assertWellFormed(forecast, "every block");
  assert.ok(forecast.probabilityAtOrBelow(0.9) > 0.6, `P(<= 0.9) ${forecast.probabilityAtOrBelow(0.9)}`);
  const sampled = fed(syntheticHours(40 * 24)).forecast(momentAfter(hours), 1);
  assert.ok(sampled.probabilityAtOrBelow(0.9) < forecast.probabilityAtOrBelow(0.9) - 0.2, "one sample an hour: drops are rarer");
});

test("a chain whose fee never moves is forecast to stay where it is", () => {
  const fee = 1_000_000n;
  const hours = Array.from({ length: 30 * 24 }, (_, i) => ({
    start: START + i * HOUR_SECONDS,
    blocks: 1,
    sampled: false,
    min: fee,
    p10: fee,
    p50: fee,
    p90: fee,
    max: fee,
    last: fee,
  }));
  const forecast = fed(hours).forecast(momentAfter(hours), 12);
  assert.equal(forecast.quantileRatio(0.5), 1);
  assert.ok(forecast.probabilityAtOrBelow(0.99) < 0.05);
  assert.equal(forecast.probabilityAtOrBelow(1), 1);
});

test("the same hours in the same order give the same forecasts, whatever comes after (no look-ahead)", () => {
  const hours = syntheticHours(45 * 24, 11);
  const cut = 30 * 24;
  const atCut = momentAfter(hours.slice(0, cut));
  const alone = fed(hours.slice(0, cut));
  const whole = createLowestFeeEstimator();
  let asked: number[][] | undefined;
  hours.forEach((hour, i) => {
    whole.observe(hour);
    if (i === cut - 1) asked = [1, 5, 24, 168].map((within) => probes(whole.forecast(atCut, within)));
  });
  const again = fed(hours.slice(0, cut));
  const fromAlone = [1, 5, 24, 168].map((within) => probes(alone.forecast(atCut, within)));
  assert.deepEqual(asked, fromAlone);
  assert.deepEqual(
    [1, 5, 24, 168].map((within) => probes(again.forecast(atCut, within))),
    fromAlone,
    "deterministic: a second estimator fed the same hours answers the same",
  );
  assert.notDeepEqual(
    [1, 5, 24, 168].map((within) => probes(whole.forecast(atCut, within))),
    fromAlone,
    "the later hours do change later forecasts (the test can tell)",
  );
});

test("its forecasts are calibrated out of sample on a chain it learns as it goes", () => {
  const hours = syntheticHours(120 * 24);
  const estimator = createLowestFeeEstimator();
  const within = 6;
  let forecasts = 0;
  let belowMedian = 0;
  let probabilitySum = 0;
  let events = 0;
  hours.forEach((hour, i) => {
    estimator.observe(hour);
    if (i < 30 * 24 || i + within >= hours.length) return;
    const forecast = estimator.forecast(momentAfter([hour]), within);
    let lowest = Number.POSITIVE_INFINITY;
    for (let k = 1; k <= within; k++) lowest = Math.min(lowest, Number((hours[i + k] as HourlySummary).min));
    const ratio = lowest / Number(hour.last);
    forecasts++;
    if (ratio <= forecast.quantileRatio(0.5)) belowMedian++;
    probabilitySum += forecast.probabilityAtOrBelow(0.9);
    if (ratio <= 0.9) events++;
  });
  assert.ok(Math.abs(belowMedian / forecasts - 0.5) < 0.05, `below the median ${belowMedian / forecasts}`);
  assert.ok(Math.abs(probabilitySum / forecasts - events / forecasts) < 0.05, `mean probability ${probabilitySum / forecasts} vs ${events / forecasts}`);
});

test("no look-ahead through the backtest runner: with the samples cut at T, every forecast made up to T is the same", () => {
  const samples = syntheticHours(50 * 24, 13).map((hour) => ({ timestamp: hour.start + 1_800, baseFee: hour.last }));
  const questions = { withinHours: [1, 6, 24], ratios: [0.9, 0.75], warmupHours: 14 * 24 };
  const full = runBacktest(samples, () => createLowestFeeEstimator(), questions);
  const cutAt = START + 40 * 24 * HOUR_SECONDS;
  const cut = runBacktest(samplesUpTo(samples, cutAt), () => createLowestFeeEstimator(), questions);
  assert.ok(cut.forecasts.count > 100 && cut.forecasts.count < full.forecasts.count);
  assert.equal(firstForecastDifference(full, cut, cutAt), undefined);
});

test("hours out of order and horizons out of range are refused with a clear error", () => {
  const hours = syntheticHours(3);
  const estimator = fed(hours);
  assert.throws(() => estimator.observe(hours[1] as HourlySummary), /oldest first/);
  for (const within of [0, 169, 1.5, Number.NaN]) assert.throws(() => estimator.forecast(momentAfter(hours), within), /withinHours/);
});
