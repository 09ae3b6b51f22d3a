// The estimator's model for one horizon H: log(lowest within H / current) as a location (where it is expected) plus a
// scale (how far off that usually is) times a standardized error whose quantiles are the model's own past errors.
// Location and scale are linear in the features, fitted by forgetting least squares on outcomes as they resolve.
import { createForgettingRidge, type ForgettingRidge } from "./forgettingRidge.ts";
import { logRatioDistribution, QUANTILE_LEVELS } from "./logRatioDistribution.ts";
import { FEATURE_COUNT } from "./outlookFeatures.ts";
import { createProbabilityRecalibration, type ProbabilityRecalibration } from "./probabilityRecalibration.ts";
import { createResidualQuantiles, type ResidualQuantiles } from "./residualQuantiles.ts";

export interface HorizonModelOptions {
  /** Outcomes after which one counts half, in the location and scale fits. */
  readonly halfLife: number;
  /** The ridge penalty, in outcomes' worth. */
  readonly penalty: number;
  /** The newest standardized errors kept for the calibration layer. */
  readonly residuals: number;
  /** Recompute the errors' quantiles after this many new outcomes; the recalibration makes its 3 Newton steps over as many. */
  readonly refreshEvery: number;
  /** The newest outcomes the recalibration is fitted on. */
  readonly recalibrationHours: number;
  /** The recalibration's pull towards no change, in forecasts' worth. */
  readonly recalibrationPrior: number;
}

export interface HorizonPrediction {
  readonly location: number;
  readonly scale: number;
  /** The chances, before recalibration, of each RECALIBRATION_RATIOS event (kept to fit the recalibration). */
  readonly probabilities: Float64Array;
  /** True when made before any outcome, from the prior scale: its error says nothing of the model's and is not kept. */
  readonly prior: boolean;
}

export interface HorizonModel {
  readonly hours: number;
  predict(features: Float64Array): HorizonPrediction;
  /** Learns from one resolved outcome, with the prediction made for it before it was known. */
  learn(features: Float64Array, outcome: number, before: HorizonPrediction): void;
  /** The forecast's log-ratio quantiles at QUANTILE_LEVELS, recalibrated, written into `into`. */
  logQuantiles(features: Float64Array, prediction: HorizonPrediction, into: Float64Array): Float64Array;
}

/** Before any outcome: spread the forecast by 5% per square root of an hour (a fee moves 12.5% a block at most). */
const PRIOR_SCALE_PER_ROOT_HOUR = 0.05;
/** The scale is at least this share of the recent mean absolute error (a linear scale fit can dip towards 0). */
const SCALE_FLOOR_SHARE = 0.25;
/** The thresholds (ratios of now) whose past forecasts fit the recalibration: the drops people ask about, 5% to 50%. */
export const RECALIBRATION_RATIOS = [0.5, 0.6, 0.7, 0.8, 0.9, 0.95];
const RECALIBRATION_LOGS = RECALIBRATION_RATIOS.map(Math.log);

export function createHorizonModel(hours: number, options: HorizonModelOptions): HorizonModel {
  const location: ForgettingRidge = createForgettingRidge(FEATURE_COUNT, options.halfLife, options.penalty);
  const scale: ForgettingRidge = createForgettingRidge(FEATURE_COUNT, options.halfLife, options.penalty);
  const errorsAbove: ResidualQuantiles = createResidualQuantiles(options.residuals, options.refreshEvery);
  const errorsBelow: ResidualQuantiles = createResidualQuantiles(options.residuals, options.refreshEvery);
  const errorsOf = (features: Float64Array): ResidualQuantiles => ((features[2] as number) > 0 ? errorsAbove : errorsBelow);
  const recalibration: ProbabilityRecalibration = createProbabilityRecalibration(
    options.recalibrationHours * RECALIBRATION_RATIOS.length,
    options.refreshEvery * RECALIBRATION_RATIOS.length,
    options.recalibrationPrior,
  );
  const keep = Math.pow(0.5, 1 / options.halfLife);
  const raw = new Float64Array(QUANTILE_LEVELS.length);

  function rawDistribution(features: Float64Array, location: number, scale: number) {
    const errors = errorsOf(features).quantiles;
    for (let i = 0; i < raw.length; i++) raw[i] = location + scale * (errors[i] as number);
    return logRatioDistribution(QUANTILE_LEVELS, raw);
  }

  function prediction(features: Float64Array, location: number, scale: number, prior: boolean): HorizonPrediction {
    const distribution = rawDistribution(features, location, scale);
    const probabilities = new Float64Array(RECALIBRATION_RATIOS.length);
    for (let k = 0; k < probabilities.length; k++) probabilities[k] = distribution.probabilityAtOrBelow(RECALIBRATION_RATIOS[k] as number);
    return { location, scale, prior, probabilities };
  }
  let meanAbsoluteError = 0;
  let errorWeight = 0;

  return {
    hours,
    predict(features: Float64Array): HorizonPrediction {
      if (errorWeight === 0) return prediction(features, location.predict(features), PRIOR_SCALE_PER_ROOT_HOUR * Math.sqrt(hours), true);
      const floor = Math.max(SCALE_FLOOR_SHARE * (meanAbsoluteError / errorWeight), 1e-9);
      return prediction(features, location.predict(features), Math.max(scale.predict(features), floor), false);
    },
    learn(features: Float64Array, outcome: number, before: HorizonPrediction): void {
      const error = outcome - before.location;
      location.add(features, outcome);
      scale.add(features, Math.abs(error));
      meanAbsoluteError = meanAbsoluteError * keep + Math.abs(error);
      errorWeight = errorWeight * keep + 1;
      if (before.prior) return;
      errorsOf(features).add(error / before.scale);
      RECALIBRATION_LOGS.forEach((threshold, k) => recalibration.add(before.probabilities[k] as number, outcome <= threshold));
    },
    logQuantiles(features: Float64Array, prediction: HorizonPrediction, into: Float64Array): Float64Array {
      const distribution = rawDistribution(features, prediction.location, prediction.scale);
      const before = recalibration.inverseOfLevels;
      for (let i = 0; i < before.length; i++) into[i] = Math.log(distribution.quantileRatio(before[i] as number));
      return into;
    },
  };
}
