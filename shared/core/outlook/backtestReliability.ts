// Reliability by tenths: when the forecasts said about p, how often the event happened; and the calibration error
// that sums it up.

/** One tenth of the table (the shape of shared/wire/outlook.ts's reliabilityBinSchema). */
export interface ReliabilityBin {
  readonly from: number;
  readonly to: number;
  readonly forecasts: number;
  /** null when the bin holds no forecast. */
  readonly meanProbability: number | null;
  /** The share of the bin's forecasts whose event happened; null when empty. */
  readonly observed: number | null;
}

/** The ten bins [0, 0.1), [0.1, 0.2), ... [0.9, 1]. */
export const RELIABILITY_BINS = 10;

/** Running sums per tenth, to pool forecasts of several questions into one table. */
export interface ReliabilityTally {
  readonly forecasts: Float64Array;
  readonly probabilitySum: Float64Array;
  readonly events: Float64Array;
}

export function emptyReliabilityTally(): ReliabilityTally {
  return {
    forecasts: new Float64Array(RELIABILITY_BINS),
    probabilitySum: new Float64Array(RELIABILITY_BINS),
    events: new Float64Array(RELIABILITY_BINS),
  };
}

/** The tenth a probability falls in ([0.9, 1] holds 1). */
export function reliabilityBinOf(probability: number): number {
  // Rounded first so that 0.3 (whose tenfold is 2.9999...) falls in [0.3, 0.4), as written.
  return Math.min(RELIABILITY_BINS - 1, Math.max(0, Math.floor(Math.round(probability * RELIABILITY_BINS * 1e9) / 1e9)));
}

export function tallyForecast(tally: ReliabilityTally, probability: number, happened: boolean): void {
  const bin = reliabilityBinOf(probability);
  tally.forecasts[bin]! += 1;
  tally.probabilitySum[bin]! += probability;
  if (happened) tally.events[bin]! += 1;
}

export function addTally(into: ReliabilityTally, from: ReliabilityTally): void {
  for (let bin = 0; bin < RELIABILITY_BINS; bin += 1) {
    into.forecasts[bin]! += from.forecasts[bin]!;
    into.probabilitySum[bin]! += from.probabilitySum[bin]!;
    into.events[bin]! += from.events[bin]!;
  }
}

/** The table as `/outlook` answers it: per tenth, its forecasts, their mean probability and the share that happened (null when empty). */
export function reliabilityBins(tally: ReliabilityTally): ReliabilityBin[] {
  return Array.from({ length: RELIABILITY_BINS }, (_, bin) => {
    const forecasts = tally.forecasts[bin]!;
    return {
      from: bin / RELIABILITY_BINS,
      to: (bin + 1) / RELIABILITY_BINS,
      forecasts,
      meanProbability: forecasts === 0 ? null : clampProbability(tally.probabilitySum[bin]! / forecasts),
      observed: forecasts === 0 ? null : tally.events[bin]! / forecasts,
    };
  });
}

/**
 * The calibration error: the mean over all forecasts of |mean probability - observed frequency| of the tenth each falls
 * in (each tenth weighted by its forecasts). 0 when every tenth happens as often as it says; null without forecasts.
 */
export function calibrationError(tally: ReliabilityTally): number | null {
  let total = 0;
  let weighted = 0;
  for (let bin = 0; bin < RELIABILITY_BINS; bin += 1) {
    const forecasts = tally.forecasts[bin]!;
    if (forecasts === 0) continue;
    total += forecasts;
    weighted += Math.abs(tally.probabilitySum[bin]! - tally.events[bin]!);
  }
  return total === 0 ? null : weighted / total;
}

/** Sums of floats may stray a hair outside [0, 1]. */
function clampProbability(value: number): number {
  return Math.min(1, Math.max(0, value));
}
