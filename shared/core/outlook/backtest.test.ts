import assert from "node:assert/strict";
import { test } from "node:test";
import { runBacktest } from "./backtest.ts";
import { firstForecastDifference, samplesUpTo } from "./backtestLookAhead.ts";
import { createClimatologyEstimator } from "./climatologyEstimator.ts";
import type { FeeSample } from "./feeSample.ts";
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";
import type { OutlookEstimator } from "./outlookEstimator.ts";
import { summarizeByHour } from "./summarizeHour.ts";

const HOUR = HOUR_SECONDS;

/** About 40 days of samples, a few an hour at odd seconds, some hours missing, fees wandering by day and hour. */
function wanderingSamples(): FeeSample[] {
  let seed = 11;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const samples: FeeSample[] = [];
  const start = 1_700_000_000 - (1_700_000_000 % HOUR);
  let level = 20;
  for (let hour = 0; hour < 40 * 24; hour += 1) {
    if (random() < 0.05) continue; // a missing hour
    level = Math.max(3, level * Math.exp((random() - 0.5) * 0.3));
    const perHour = 1 + Math.floor(random() * 3);
    for (let k = 0; k < perHour; k += 1) {
      const fee = level * (1 + 0.3 * Math.sin(((hour % 24) / 24) * 2 * Math.PI)) * (0.8 + 0.4 * random());
      samples.push({ timestamp: start + hour * HOUR + Math.floor(random() * HOUR), baseFee: BigInt(Math.round(fee * 1e9)) });
    }
  }
  return samples.sort((a, b) => a.timestamp - b.timestamp);
}

const SMALL = { withinHours: [1, 6, 24], ratios: [0.9, 0.5], warmupHours: 7 * 24 } as const;

test("the estimator sees, before each forecast at t, exactly the hours that ended by t, in order, and the newest sample at or before t", () => {
  const samples = wanderingSamples();
  const hours = summarizeByHour(samples);
  const calls: string[] = [];
  const spy = (): OutlookEstimator => {
    const seen: HourlySummary[] = [];
    return {
      observe(hour) {
        seen.push(hour);
      },
      forecast(moment, withinHours) {
        const due = hours.filter((hour) => hour.start + HOUR <= moment.timestamp);
        assert.deepEqual(seen, due, `at ${moment.timestamp} the estimator had seen other hours than those ended by then`);
        const newest = samples.filter((sample) => sample.timestamp <= moment.timestamp).at(-1)!;
        assert.equal(moment.baseFee, newest.baseFee);
        calls.push(`${moment.timestamp}/${withinHours}`);
        return { quantileRatio: (q) => q + 0.5, probabilityAtOrBelow: (ratio) => ratio / 2 };
      },
    };
  };
  const result = runBacktest(samples, spy, SMALL);
  const firstForecastHour = hours.find((hour) => hour.start >= hours[0]!.start + 7 * 24 * HOUR)!;
  const expectedTimes = hours.filter((hour) => hour.start >= firstForecastHour.start).map((hour) => hour.start + HOUR);
  assert.equal(result.forecasts.count, expectedTimes.length);
  assert.deepEqual(
    calls,
    expectedTimes.flatMap((t) => SMALL.withinHours.map((within) => `${t}/${within}`)),
  );
  assert.equal(result.forecasts.probability[1]![1]![0], 0.25);
  assert.equal(result.forecasts.quantile[2]![2]![0], 1.4);
});

/** An estimator whose every forecast depends on every hour it observed and on the moment: it shows whatever it is fed. */
function echoEstimator(): OutlookEstimator {
  let digest = 0;
  return {
    observe(hour) {
      digest = (digest * 31 + hour.start / HOUR + hour.blocks + Number(hour.min % 1_000_003n) + Number(hour.last % 999_983n)) % 1_000_000_007;
    },
    forecast(moment, withinHours) {
      const mixed = ((digest + Number(moment.baseFee % 1_000_003n) + withinHours) % 1_000) / 1_000;
      return { quantileRatio: (q) => q + mixed, probabilityAtOrBelow: (ratio) => Math.min(1, ratio * mixed) };
    },
  };
}

test("no look-ahead: with the data cut at T, every forecast made up to T is the same", () => {
  const samples = wanderingSamples();
  for (const createEstimator of [createClimatologyEstimator, echoEstimator]) {
    const full = runBacktest(samples, createEstimator, SMALL);
    // Cut inside an hour (after its first of several samples) and at an hour's end.
    const inside = samples.findIndex(
      (sample, index) =>
        index > samples.length / 2 && sample.timestamp - (sample.timestamp % HOUR) === samples[index + 1]!.timestamp - (samples[index + 1]!.timestamp % HOUR),
    );
    const hourEnd = samples[Math.floor(samples.length * 0.8)]!.timestamp;
    for (const cutAt of [samples[inside]!.timestamp, hourEnd - (hourEnd % HOUR) + HOUR]) {
      const cut = runBacktest(samplesUpTo(samples, cutAt), createEstimator, SMALL);
      assert.ok(cut.forecasts.count > 100 && cut.forecasts.count < full.forecasts.count);
      assert.equal(firstForecastDifference(full, cut, cutAt), undefined);
    }
  }
});

test("an estimator given later hours than it should see is caught by the cut", () => {
  const samples = wanderingSamples();
  // It is handed the hours of whatever data the run has, and peeks at the hours after the moment.
  const cheating = (hours: readonly HourlySummary[]) => (): OutlookEstimator => ({
    observe() {},
    forecast(moment, withinHours) {
      const ahead = hours.filter((hour) => hour.start >= moment.timestamp && hour.start < moment.timestamp + withinHours * HOUR);
      const lowest = ahead.length === 0 ? 1 : Math.min(...ahead.map((hour) => Number(hour.min))) / Number(moment.baseFee);
      return { quantileRatio: () => lowest, probabilityAtOrBelow: (ratio) => (lowest <= ratio ? 1 : 0) };
    },
  });
  const cutAt = samples[Math.floor(samples.length * 0.6)]!.timestamp;
  const cutSamples = samplesUpTo(samples, cutAt);
  const full = runBacktest(samples, cheating(summarizeByHour(samples)), SMALL);
  const cut = runBacktest(cutSamples, cheating(summarizeByHour(cutSamples)), SMALL);
  const difference = firstForecastDifference(full, cut, cutAt);
  assert.ok(difference !== undefined, "the cheat went unnoticed");
  assert.ok(difference.t <= cutAt && difference.t + difference.withinHours * HOUR > cutAt, JSON.stringify(difference));
  // It looks perfect, which is why it must be caught.
  assert.ok(full.meanSkill! > 0.5);
});

test("a walk-forward run over every question scores each one, and the placeholder scores as its climatology does", () => {
  const samples = wanderingSamples();
  const result = runBacktest(samples, createClimatologyEstimator, SMALL);
  assert.deepEqual(
    result.questions.map((question) => `${question.withinHours}/${question.ratio}`),
    ["1/0.9", "1/0.5", "6/0.9", "6/0.5", "24/0.9", "24/0.5"],
  );
  for (const question of result.questions) {
    assert.ok(question.forecasts > 500);
    assert.equal(
      question.reliability.reduce((sum, bin) => sum + bin.forecasts, 0),
      question.forecasts,
    );
    // Null only where the event never happened and both said so (a perfect climatology leaves no skill to measure).
    if (question.skill === null) assert.equal(question.brierClimatology, 0);
    else assert.ok(Math.abs(question.skill) < 0.2, `${question.withinHours}/${question.ratio}: ${question.skill}`);
  }
  assert.equal(result.coverage.length, 3);
  for (const coverage of result.coverage) {
    assert.ok(coverage.below[0]! < coverage.below[1]! && coverage.below[1]! < coverage.below[2]!);
  }
  assert.equal(
    runBacktest(samples, createClimatologyEstimator, { ...SMALL, warmupHours: 10_000 }).forecasts.count,
    0,
    "a warm-up longer than the data leaves no forecast",
  );
});

test("an estimator's chance outside [0, 1], or a quantile that is not a ratio, is refused rather than scored", () => {
  const samples = wanderingSamples();
  const saying = (chance: number, ratio: number) => (): OutlookEstimator => ({
    observe() {},
    forecast: () => ({ quantileRatio: () => ratio, probabilityAtOrBelow: () => chance }),
  });
  assert.throws(() => runBacktest(samples, saying(Number.NaN, 1), SMALL), /chance at \d+ within 1 h is NaN, not in \[0, 1\]/);
  assert.throws(() => runBacktest(samples, saying(1.2, 1), SMALL), /is 1.2, not in \[0, 1\]/);
  assert.throws(() => runBacktest(samples, saying(0.5, Number.POSITIVE_INFINITY), SMALL), /quantile ratio at \d+ within 1 h is Infinity/);
  assert.equal(runBacktest(samples, saying(1, 0), SMALL).questions[0]!.baseRate! > 0, true);
});
