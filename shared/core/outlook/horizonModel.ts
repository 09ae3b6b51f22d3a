// The estimator's model for one horizon H: log(lowest within H / current) as a location (where it is expected) plus a
// scale (how far off that usually is) times a standardized error whose quantiles are the model's own past errors.
// Location and scale are linear in the features, fitted by forgetting least squares on outcomes as they resolve.
import { createForgettingRidge, type ForgettingRidge } from "./forgettingRidge.ts";
import { FEATURE_COUNT } from "./outlookFeatures.ts";
import { createResidualQuantiles, type ResidualQuantiles } from "./residualQuantiles.ts";

export interface HorizonModelOptions {
  /** Outcomes after which one counts half, in the location and scale fits. */
  readonly halfLife: number;
  /** The ridge penalty, in outcomes' worth. */
  readonly penalty: number;
  /** The newest standardized errors kept for the calibration layer. */
  readonly residuals: number;
  /** Recompute the errors' quantiles after this many new ones. */
  readonly refreshEvery: number;
}

export interface HorizonPrediction {
  readonly location: number;
  readonly scale: number;
  /** True when made before any outcome, from the prior scale: its error says nothing of the model's and is not kept. */
  readonly prior: boolean;
}

export interface HorizonModel {
  readonly hours: number;
  predict(features: Float64Array): HorizonPrediction;
  /** Learns from one resolved outcome, with the prediction made for it before it was known. */
  learn(features: Float64Array, outcome: number, before: HorizonPrediction): void;
  /** The standardized errors' quantiles at QUANTILE_LEVELS. */
  errorQuantiles(features: Float64Array): Float64Array;
}

/** Before any outcome: spread the forecast by 5% per square root of an hour (a fee moves 12.5% a block at most). */
const PRIOR_SCALE_PER_ROOT_HOUR = 0.05;
/** The scale is at least this share of the recent mean absolute error (a linear scale fit can dip towards 0). */
const SCALE_FLOOR_SHARE = 0.25;

export function createHorizonModel(hours: number, options: HorizonModelOptions): HorizonModel {
  const location: ForgettingRidge = createForgettingRidge(FEATURE_COUNT, options.halfLife, options.penalty);
  const scale: ForgettingRidge = createForgettingRidge(FEATURE_COUNT, options.halfLife, options.penalty);
  const errorsAbove: ResidualQuantiles = createResidualQuantiles(options.residuals, options.refreshEvery);
  const errorsBelow: ResidualQuantiles = createResidualQuantiles(options.residuals, options.refreshEvery);
  const errorsOf = (features: Float64Array): ResidualQuantiles => ((features[2] as number) > 0 ? errorsAbove : errorsBelow);
  const keep = Math.pow(0.5, 1 / options.halfLife);
  let meanAbsoluteError = 0;
  let errorWeight = 0;

  return {
    hours,
    predict(features: Float64Array): HorizonPrediction {
      if (errorWeight === 0) return { location: location.predict(features), scale: PRIOR_SCALE_PER_ROOT_HOUR * Math.sqrt(hours), prior: true };
      const floor = Math.max(SCALE_FLOOR_SHARE * (meanAbsoluteError / errorWeight), 1e-9);
      return { location: location.predict(features), scale: Math.max(scale.predict(features), floor), prior: false };
    },
    learn(features: Float64Array, outcome: number, before: HorizonPrediction): void {
      const error = outcome - before.location;
      location.add(features, outcome);
      scale.add(features, Math.abs(error));
      meanAbsoluteError = meanAbsoluteError * keep + Math.abs(error);
      errorWeight = errorWeight * keep + 1;
      if (!before.prior) errorsOf(features).add(error / before.scale);
    },
    errorQuantiles(features: Float64Array): Float64Array {
      return errorsOf(features).quantiles;
    },
  };
}
