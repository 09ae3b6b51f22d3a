// The outlook's estimator (CONTRACT.md, "Outlook: wait or pay now"): from closed hours, the distribution of the lowest
// base fee within H hours as a ratio of the fee now. One model per anchor horizon (1 h to 7 d), each learning
// walk-forward from the outcomes of the hours it observed; a horizon between two anchors mixes their quantiles.
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";
import { createHorizonModel, type HorizonModel, type HorizonPrediction } from "./horizonModel.ts";
import { QUANTILE_LEVELS, logRatioDistribution } from "./logRatioDistribution.ts";
import { createRecentLevels, FEATURE_COUNT, logWei } from "./outlookFeatures.ts";
import type { ForecastMoment, LowestFeeForecast, OutlookEstimator } from "./outlookEstimator.ts";

export const MIN_WITHIN_HOURS = 1;
export const MAX_WITHIN_HOURS = 168;

export interface LowestFeeEstimatorOptions {
  /** The horizons modelled (hours, ascending, from 1 to 168 inclusive); others are interpolated between them. */
  readonly anchorHours?: readonly number[];
  /** Outcomes after which one counts half: how fast the estimator follows a changed market. */
  readonly halfLifeHours?: number;
  /** The ridge penalty, in outcomes' worth. */
  readonly penalty?: number;
  /** The newest standardized errors the calibration layer keeps, per horizon. */
  readonly residualHours?: number;
  /** Recompute the calibration layer's quantiles after this many new outcomes; the recalibration's 3 Newton steps take as many. */
  readonly refreshEvery?: number;
  /** The newest outcomes the probability recalibration is fitted on, per horizon. */
  readonly recalibrationHours?: number;
  /** The recalibration's pull towards no change, in forecasts' worth. */
  readonly recalibrationPrior?: number;
}

/** Roughly doubling steps: the lowest fee's distribution changes fast over the first hours and slowly over days. */
const DEFAULT_ANCHOR_HOURS = [1, 2, 3, 4, 6, 8, 12, 16, 24, 36, 48, 72, 96, 120, 144, 168];

interface Origin {
  /** The start of the hour at whose end the forecast is made. */
  readonly start: number;
  readonly logCurrent: number;
  readonly features: Float64Array;
  readonly predictions: HorizonPrediction[];
  /** The index of the next anchor whose outcome is still open. */
  nextAnchor: number;
}

interface HeldHour {
  readonly start: number;
  readonly logMin: number;
}

export function createLowestFeeEstimator(options: LowestFeeEstimatorOptions = {}): OutlookEstimator {
  const anchorHours = options.anchorHours ?? DEFAULT_ANCHOR_HOURS;
  if (anchorHours[0] !== MIN_WITHIN_HOURS || anchorHours[anchorHours.length - 1] !== MAX_WITHIN_HOURS) {
    throw new RangeError(`the anchor horizons must run from ${MIN_WITHIN_HOURS} h to ${MAX_WITHIN_HOURS} h`);
  }
  const modelOptions = {
    halfLife: options.halfLifeHours ?? 60 * 24,
    penalty: options.penalty ?? 24,
    residuals: options.residualHours ?? 60 * 24,
    refreshEvery: options.refreshEvery ?? 24,
    recalibrationHours: options.recalibrationHours ?? 14 * 24,
    recalibrationPrior: options.recalibrationPrior ?? 100,
  };
  const models: HorizonModel[] = anchorHours.map((hours) => createHorizonModel(hours, modelOptions));
  const levels = createRecentLevels();
  const held: HeldHour[] = [];
  const origins: Origin[] = [];
  let newestStart = Number.NEGATIVE_INFINITY;
  const scratch = new Float64Array(FEATURE_COUNT);
  const logValues = new Float64Array(QUANTILE_LEVELS.length);
  const aboveValues = new Float64Array(QUANTILE_LEVELS.length);

  function lowestIn(from: number, to: number): number {
    let lowest = Number.POSITIVE_INFINITY;
    for (let i = held.length - 1; i >= 0; i--) {
      const hour = held[i] as HeldHour;
      if (hour.start < from) break;
      if (hour.start <= to && hour.logMin < lowest) lowest = hour.logMin;
    }
    return lowest;
  }

  /** Learns every outcome whose window (the H hours after its origin) closed by the hour starting at `start`. */
  function resolveUpTo(start: number): void {
    for (const origin of origins) {
      while (origin.nextAnchor < models.length) {
        const model = models[origin.nextAnchor] as HorizonModel;
        const lastHourStart = origin.start + model.hours * HOUR_SECONDS;
        if (lastHourStart > start) break;
        const lowest = lowestIn(origin.start + HOUR_SECONDS, lastHourStart);
        if (Number.isFinite(lowest)) model.learn(origin.features, lowest - origin.logCurrent, origin.predictions[origin.nextAnchor] as HorizonPrediction);
        origin.nextAnchor++;
      }
    }
    while (origins.length > 0 && (origins[0] as Origin).nextAnchor === models.length) origins.shift();
  }

  return {
    observe(hour: HourlySummary): void {
      if (!(hour.start > newestStart)) throw new RangeError(`hours must be observed oldest first (${hour.start} after ${newestStart})`);
      newestStart = hour.start;
      held.push({ start: hour.start, logMin: logWei(hour.min) });
      while ((held[0] as HeldHour).start < hour.start - MAX_WITHIN_HOURS * HOUR_SECONDS) held.shift();
      resolveUpTo(hour.start);
      levels.observe(hour);
      const logCurrent = logWei(hour.last);
      const features = levels.featuresAt(logCurrent, hour.start + HOUR_SECONDS, new Float64Array(FEATURE_COUNT));
      origins.push({ start: hour.start, logCurrent, features, predictions: models.map((model) => model.predict(features)), nextAnchor: 0 });
    },

    forecast(moment: ForecastMoment, withinHours: number): LowestFeeForecast {
      if (!Number.isInteger(withinHours) || withinHours < MIN_WITHIN_HOURS || withinHours > MAX_WITHIN_HOURS) {
        throw new RangeError(`withinHours must be a whole number of hours from ${MIN_WITHIN_HOURS} to ${MAX_WITHIN_HOURS} (got ${withinHours})`);
      }
      const features = levels.featuresAt(logWei(moment.baseFee), moment.timestamp, scratch);
      let upper = 0;
      while ((anchorHours[upper] as number) < withinHours) upper++;
      const lower = anchorHours[upper] === withinHours ? upper : upper - 1;
      const lowerHours = anchorHours[lower] as number;
      const upperHours = anchorHours[upper] as number;
      const weight = lower === upper ? 0 : Math.log(withinHours / lowerHours) / Math.log(upperHours / lowerHours);
      const below = models[lower] as HorizonModel;
      const above = models[upper] as HorizonModel;
      const belowPrediction = below.predict(features);
      const abovePrediction = weight === 0 ? belowPrediction : above.predict(features);
      below.logQuantiles(features, belowPrediction, logValues);
      if (weight > 0) {
        above.logQuantiles(features, abovePrediction, aboveValues);
        for (let i = 0; i < logValues.length; i++) logValues[i] = (1 - weight) * (logValues[i] as number) + weight * (aboveValues[i] as number);
      }
      return logRatioDistribution(QUANTILE_LEVELS, logValues);
    },
  };
}
