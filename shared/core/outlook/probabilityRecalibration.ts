import { QUANTILE_LEVELS } from "./logRatioDistribution.ts";

// The second calibration layer: a map of forecast probabilities to the frequencies seen, p -> sigma(a + b logit p),
// fitted walk-forward on the horizon's own recent forecasts of "at or below r x now" for a grid of r below 1 (the
// thresholds people ask about). It follows a market whose drops became rarer or commoner within weeks, and, being one
// increasing map of p, keeps every forecast monotone and its quantiles consistent with its probabilities.

export interface ProbabilityRecalibration {
  /** Records one past forecast probability and whether its event happened. */
  add(probability: number, happened: boolean): void;
  /** The recalibrated probability. */
  map(probability: number): number;
  /** The probability whose recalibration is `probability` (the map's inverse). */
  inverse(probability: number): number;
  /** The inverse at each of QUANTILE_LEVELS, kept from the last fit (what every forecast reads). */
  readonly inverseOfLevels: Float64Array;
}

/** Probabilities are kept this far from 0 and 1 in logit space, so that one forecast of 0 or 1 cannot dominate. */
const LOGIT_LIMIT = 7;
/** The slope never falls below this: the map stays increasing, and never flattens every forecast to one value. */
const MIN_SLOPE = 0.2;

function logit(probability: number): number {
  const clamped = Math.min(1 - 1e-9, Math.max(1e-9, probability));
  return Math.max(-LOGIT_LIMIT, Math.min(LOGIT_LIMIT, Math.log(clamped / (1 - clamped))));
}

/**
 * @param capacity the newest forecasts kept
 * @param refitEvery refit (Newton steps from the last fit) after this many new forecasts
 * @param priorWeight a penalty, in forecasts' worth, pulling the map towards the identity (a = 0, b = 1)
 */
export function createProbabilityRecalibration(capacity: number, refitEvery: number, priorWeight: number): ProbabilityRecalibration {
  const logits = new Float64Array(capacity);
  const outcomes = new Uint8Array(capacity);
  let count = 0;
  let next = 0;
  let sinceRefit = 0;
  let intercept = 0;
  let slope = 1;
  let inverseOfLevels = Float64Array.from(QUANTILE_LEVELS);

  function inverse(probability: number): number {
    if (probability <= 0 || probability >= 1) return probability;
    return 1 / (1 + Math.exp(-((Math.log(probability / (1 - probability)) - intercept) / slope)));
  }

  function refit(): void {
    const kept = Math.min(count, capacity);
    let a = intercept;
    let b = slope;
    for (let step = 0; step < 3; step++) {
      // Gradient and Hessian of the penalised log-likelihood in (a, b).
      let ga = -priorWeight * a;
      let gb = -priorWeight * (b - 1);
      let haa = priorWeight;
      let hab = 0;
      let hbb = priorWeight;
      for (let i = 0; i < kept; i++) {
        const z = logits[i] as number;
        const p = 1 / (1 + Math.exp(-(a + b * z)));
        const residual = (outcomes[i] as number) - p;
        const w = p * (1 - p);
        ga += residual;
        gb += residual * z;
        haa += w;
        hab += w * z;
        hbb += w * z * z;
      }
      const determinant = haa * hbb - hab * hab;
      if (!(determinant > 0)) break;
      a += (hbb * ga - hab * gb) / determinant;
      b += (haa * gb - hab * ga) / determinant;
    }
    if (Number.isFinite(a) && Number.isFinite(b)) {
      intercept = a;
      slope = Math.max(MIN_SLOPE, b);
      inverseOfLevels = Float64Array.from(QUANTILE_LEVELS, (level) => Math.min(1 - 1e-12, Math.max(1e-12, inverse(level))));
    }
  }

  return {
    add(probability: number, happened: boolean): void {
      logits[next] = logit(probability);
      outcomes[next] = happened ? 1 : 0;
      next = (next + 1) % capacity;
      count++;
      if (++sinceRefit >= refitEvery) {
        refit();
        sinceRefit = 0;
      }
    },
    map(probability: number): number {
      if (probability <= 0 || probability >= 1) return probability;
      return 1 / (1 + Math.exp(-(intercept + slope * Math.log(probability / (1 - probability)))));
    },
    inverse,
    get inverseOfLevels(): Float64Array {
      return inverseOfLevels;
    },
  };
}
