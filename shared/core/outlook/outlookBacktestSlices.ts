// The outlook's own track record for one horizon: the estimator replayed walk-forward over a chain's summaries, pooled
// over the threshold ratios, computed in slices so that a long replay never holds the event loop (CONTRACT.md,
// "Outlook: wait or pay now": `backtest`).
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";
import type { OutlookEstimator } from "./outlookEstimator.ts";

/** The backtest as `/outlook` says it (shared/wire/outlook.ts's OutlookBacktest, without its zod type). */
export interface PooledBacktest {
  readonly forecasts: number;
  readonly brier: number | null;
  readonly brierClimatology: number | null;
  readonly skill: number | null;
  readonly reliability: readonly ReliabilityTenth[];
}

export interface ReliabilityTenth {
  readonly from: number;
  readonly to: number;
  readonly forecasts: number;
  readonly meanProbability: number | null;
  readonly observed: number | null;
}

/** The questions pooled: r x the newest base fee at t, as in `npm run backtest`'s defaults. */
export const BACKTEST_RATIOS: readonly number[] = Object.freeze([0.9, 0.75, 0.5]);
/** No forecast is scored before this much of the summaries lies behind it. */
export const BACKTEST_WARMUP_SECONDS = 28 * 86_400;
/** The climatology of a forecast at t: the frequency of the same event over this long before t. */
export const CLIMATOLOGY_SECONDS = 28 * 86_400;

/** Hours replayed in one slice: a few milliseconds of work at most with a light estimator. */
export const DEFAULT_HOURS_PER_SLICE = 256;

/**
 * Replays a fresh estimator over `summaries` (oldest first): after each hour it observes, at the hour's end t, it
 * forecasts for `withinHours` whether the lowest base fee of the hours starting in [t, t + H) is at or below r x the
 * hour's last base fee, for each ratio r. Scored only after the warm-up and where both the outcome (an hour in the
 * horizon, which ends by the newest hour's end) and the climatology (an event resolved by t within the 28 days before)
 * are known. Yields after every
 * `hoursPerSlice` hours; returns the pooled summary. A forecast at t uses only hours that end by t.
 */
export function* pooledBacktestSlices(
  summaries: readonly HourlySummary[],
  estimator: OutlookEstimator,
  withinHours: number,
  hoursPerSlice: number = DEFAULT_HOURS_PER_SLICE,
): Generator<void, PooledBacktest, void> {
  const horizonSeconds = withinHours * HOUR_SECONDS;
  const firstStart = summaries[0]?.start ?? 0;
  const newestEnd = (summaries.at(-1)?.start ?? 0) + HOUR_SECONDS;
  const ratiosPer100 = BACKTEST_RATIOS.map((ratio) => BigInt(Math.round(ratio * 100)));
  // Per ratio, every event resolved so far in time order: its time and a running count of the events that happened.
  const eventTimes: number[] = [];
  const happenedBefore = BACKTEST_RATIOS.map(() => [0] as number[]);
  let climatologyFrom = 0;
  let resolvedBy = 0;
  const bins = Array.from({ length: 10 }, () => ({ forecasts: 0, probabilitySum: 0, happened: 0 }));
  let forecasts = 0;
  let brierSum = 0;
  let climatologySum = 0;
  // Outcomes wait until their horizon closes before they count in the climatology.
  const waiting: { t: number; events: boolean[] }[] = [];
  for (let index = 0; index < summaries.length; index += 1) {
    const hour = summaries[index]!;
    estimator.observe(hour);
    const t = hour.start + HOUR_SECONDS;
    // Events whose horizon ended by t may now count in the climatology.
    while (waiting.length > 0 && waiting[0]!.t + horizonSeconds <= t) {
      const resolved = waiting.shift()!;
      eventTimes.push(resolved.t);
      resolved.events.forEach((event, r) => happenedBefore[r]!.push(happenedBefore[r]!.at(-1)! + (event ? 1 : 0)));
    }
    resolvedBy = eventTimes.length;
    while (climatologyFrom < resolvedBy && eventTimes[climatologyFrom]! < t - CLIMATOLOGY_SECONDS) climatologyFrom += 1;
    // A horizon that runs past the newest hour has no outcome yet.
    const lowest = t + horizonSeconds > newestEnd ? undefined : lowestStartingWithin(summaries, index + 1, t, t + horizonSeconds);
    if (lowest !== undefined) {
      const current = hour.last;
      const events = ratiosPer100.map((per100) => lowest * 100n <= current * per100);
      waiting.push({ t, events });
      const climatologyEvents = resolvedBy - climatologyFrom;
      if (t - firstStart >= BACKTEST_WARMUP_SECONDS && climatologyEvents > 0 && current > 0n) {
        const forecast = estimator.forecast({ timestamp: t, baseFee: current }, withinHours);
        BACKTEST_RATIOS.forEach((ratio, r) => {
          const probability = Math.min(1, Math.max(0, forecast.probabilityAtOrBelow(ratio)));
          const outcome = events[r] ? 1 : 0;
          const climatology = (happenedBefore[r]![resolvedBy]! - happenedBefore[r]![climatologyFrom]!) / climatologyEvents;
          forecasts += 1;
          brierSum += (probability - outcome) ** 2;
          climatologySum += (climatology - outcome) ** 2;
          const bin = bins[Math.min(9, Math.floor(probability * 10))]!;
          bin.forecasts += 1;
          bin.probabilitySum += probability;
          bin.happened += outcome;
        });
      }
    }
    if ((index + 1) % hoursPerSlice === 0) yield;
  }
  const brier = forecasts === 0 ? null : brierSum / forecasts;
  const brierClimatology = forecasts === 0 ? null : climatologySum / forecasts;
  return {
    forecasts,
    brier: rounded(brier),
    brierClimatology: rounded(brierClimatology),
    skill: brier === null || brierClimatology === null || brierClimatology === 0 ? null : rounded(1 - brier / brierClimatology),
    reliability: bins.map((bin, tenth) => ({
      from: tenth / 10,
      to: (tenth + 1) / 10,
      forecasts: bin.forecasts,
      meanProbability: bin.forecasts === 0 ? null : rounded(bin.probabilitySum / bin.forecasts),
      observed: bin.forecasts === 0 ? null : rounded(bin.happened / bin.forecasts),
    })),
  };
}

/** Runs `slices` to its end at once (tests, and callers with no event loop to share). */
export function runToEnd<T>(slices: Generator<void, T, void>): T {
  for (;;) {
    const step = slices.next();
    if (step.done === true) return step.value;
  }
}

/** The lowest `min` of the hours from `fromIndex` on that start in [from, to); undefined when none does. */
function lowestStartingWithin(summaries: readonly HourlySummary[], fromIndex: number, from: number, to: number): bigint | undefined {
  let lowest: bigint | undefined;
  for (let index = fromIndex; index < summaries.length; index += 1) {
    const hour = summaries[index]!;
    if (hour.start >= to) break;
    if (hour.start >= from && (lowest === undefined || hour.min < lowest)) lowest = hour.min;
  }
  return lowest;
}

/** Four decimals: the answer's figures, stable across runs and short in JSON. */
function rounded(value: number | null): number | null {
  return value === null ? null : Math.round(value * 10_000) / 10_000;
}
