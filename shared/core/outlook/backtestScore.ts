// How one backtest question scored: its Brier score against the climatology's, its reliability, its calibration.
import { calibrationError, emptyReliabilityTally, reliabilityBins, tallyForecast, type ReliabilityBin, type ReliabilityTally } from "./backtestReliability.ts";

/** The forecasts of one question (a horizon and a ratio) with a known outcome, summed up. */
export interface QuestionScore {
  /** Forecasts whose outcome is known (the others are not scored). */
  readonly forecasts: number;
  /** The share of them whose event happened. */
  readonly baseRate: number | null;
  /** Mean of (probability - outcome)^2, outcome 1 when the event happened else 0. */
  readonly brier: number | null;
  /** The same for the climatology's probabilities. */
  readonly brierClimatology: number | null;
  /** 1 - brier / brierClimatology; null without forecasts or when the climatology was perfect. */
  readonly skill: number | null;
  readonly calibrationError: number | null;
  readonly reliability: ReliabilityBin[];
  /** Kept to pool several questions' reliability. */
  readonly tally: ReliabilityTally;
}

/** Running sums of one question's (or several pooled questions') scores. */
export interface ScoreTally {
  forecasts: number;
  events: number;
  squaredError: number;
  squaredErrorClimatology: number;
  readonly reliability: ReliabilityTally;
}

export function emptyScoreTally(): ScoreTally {
  return { forecasts: 0, events: 0, squaredError: 0, squaredErrorClimatology: 0, reliability: emptyReliabilityTally() };
}

/** Adds one forecast whose outcome is known. */
export function tallyScore(tally: ScoreTally, probability: number, climatologyProbability: number, happened: boolean): void {
  const outcome = happened ? 1 : 0;
  tally.forecasts += 1;
  tally.events += outcome;
  tally.squaredError += (probability - outcome) ** 2;
  tally.squaredErrorClimatology += (climatologyProbability - outcome) ** 2;
  tallyForecast(tally.reliability, probability, happened);
}

/** 1 - brier / brierClimatology, or null when it is not defined. */
export function brierSkill(brier: number | null, brierClimatology: number | null): number | null {
  if (brier === null || brierClimatology === null || brierClimatology === 0) return null;
  return 1 - brier / brierClimatology;
}

export function scoreOf(tally: ScoreTally): QuestionScore {
  const { forecasts } = tally;
  const brier = forecasts === 0 ? null : tally.squaredError / forecasts;
  const brierClimatology = forecasts === 0 ? null : tally.squaredErrorClimatology / forecasts;
  return {
    forecasts,
    baseRate: forecasts === 0 ? null : tally.events / forecasts,
    brier,
    brierClimatology,
    skill: brierSkill(brier, brierClimatology),
    calibrationError: calibrationError(tally.reliability),
    reliability: reliabilityBins(tally.reliability),
    tally: tally.reliability,
  };
}
