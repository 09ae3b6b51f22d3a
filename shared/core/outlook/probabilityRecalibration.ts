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
  /** The kept forecasts visited by the fit so far, all adds together: the work, which no add may let grow by a whole pass. */
  readonly work: number;
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
 * The fit is Newton's method on the penalised log-likelihood, warm-started from the last fit and run without end, a
 * slice of the kept forecasts at each add: a step's gradient and Hessian are summed over one pass through the kept
 * forecasts, `steps` passes every `refitEvery` adds, and each pass ends in one step. So every add does the same small
 * work (at most steps x capacity / refitEvery forecasts), where refitting all at once every so often would stall one.
 *
 * @param capacity the newest forecasts kept
 * @param refitEvery the adds over which the fit makes `steps` Newton steps; no fit before this many forecasts
 * @param priorWeight a penalty, in forecasts' worth, pulling the map towards the identity (a = 0, b = 1)
 */
export function createProbabilityRecalibration(capacity: number, refitEvery: number, priorWeight: number, steps = 3): ProbabilityRecalibration {
  const logits = new Float64Array(capacity);
  const outcomes = new Uint8Array(capacity);
  const slice = Math.ceil((steps * capacity) / refitEvery);
  let count = 0;
  let next = 0;
  let intercept = 0;
  let slope = 1;
  let inverseOfLevels = Float64Array.from(QUANTILE_LEVELS);
  let work = 0;
  // The pass under way: the next kept forecast it visits, and its sums so far at (intercept, slope).
  let cursor = 0;
  // [ga, gb, haa, hab, hbb]: in an array, as numbers kept in a closure would each be a new heap number at every write.
  const sums = new Float64Array(5);

  function inverse(probability: number): number {
    if (probability <= 0 || probability >= 1) return probability;
    return 1 / (1 + Math.exp(-((Math.log(probability / (1 - probability)) - intercept) / slope)));
  }

  function startPass(): void {
    cursor = 0;
    // Gradient and Hessian of the penalised log-likelihood in (a, b): the prior's part.
    sums[0] = -priorWeight * intercept;
    sums[1] = -priorWeight * (slope - 1);
    sums[2] = priorWeight;
    sums[3] = 0;
    sums[4] = priorWeight;
  }

  function endPass(): void {
    const ga = sums[0] as number;
    const gb = sums[1] as number;
    const haa = sums[2] as number;
    const hab = sums[3] as number;
    const hbb = sums[4] as number;
    const determinant = haa * hbb - hab * hab;
    if (determinant > 0) {
      const a = intercept + (hbb * ga - hab * gb) / determinant;
      const b = slope + (haa * gb - hab * ga) / determinant;
      if (Number.isFinite(a) && Number.isFinite(b)) {
        intercept = a;
        slope = Math.max(MIN_SLOPE, b);
        inverseOfLevels = new Float64Array(QUANTILE_LEVELS.length);
        for (let i = 0; i < inverseOfLevels.length; i++) inverseOfLevels[i] = Math.min(1 - 1e-12, Math.max(1e-12, inverse(QUANTILE_LEVELS[i] as number)));
      }
    }
    startPass();
  }

  /** Visits the next slice of the kept forecasts; a pass that reaches the last one makes its Newton step. */
  function advance(): void {
    const kept = Math.min(count, capacity);
    const end = Math.min(kept, cursor + slice);
    // Locals in the loop, the hot path of every add.
    const a = intercept;
    const b = slope;
    let sumGa = sums[0] as number;
    let sumGb = sums[1] as number;
    let sumHaa = sums[2] as number;
    let sumHab = sums[3] as number;
    let sumHbb = sums[4] as number;
    for (let i = cursor; i < end; i++) {
      const z = logits[i] as number;
      const p = 1 / (1 + Math.exp(-(a + b * z)));
      const residual = (outcomes[i] as number) - p;
      const w = p * (1 - p);
      sumGa += residual;
      sumGb += residual * z;
      sumHaa += w;
      sumHab += w * z;
      sumHbb += w * z * z;
    }
    sums[0] = sumGa;
    sums[1] = sumGb;
    sums[2] = sumHaa;
    sums[3] = sumHab;
    sums[4] = sumHbb;
    work += end - cursor;
    cursor = end;
    if (cursor >= kept) endPass();
  }

  startPass();
  return {
    add(probability: number, happened: boolean): void {
      logits[next] = logit(probability);
      outcomes[next] = happened ? 1 : 0;
      next = (next + 1) % capacity;
      count++;
      if (count >= refitEvery) advance();
    },
    map(probability: number): number {
      if (probability <= 0 || probability >= 1) return probability;
      return 1 / (1 + Math.exp(-(intercept + slope * Math.log(probability / (1 - probability)))));
    },
    inverse,
    get inverseOfLevels(): Float64Array {
      return inverseOfLevels;
    },
    get work(): number {
      return work;
    },
  };
}
