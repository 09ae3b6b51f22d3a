// A replay's forecasts set against what happened: each question's score against the climatology, the quantiles'
// coverage, and the figures over all questions.
import { climatology } from "./backtestClimatology.ts";
import type { BacktestMoments, LowestWithin } from "./backtestMoments.ts";
import { addTally, calibrationError, emptyReliabilityTally } from "./backtestReliability.ts";
import { emptyScoreTally, scoreOf, tallyScore, type QuestionScore, type ScoreTally } from "./backtestScore.ts";
import { BACKTEST_QUANTILES, type WalkForwardForecasts, type WalkForwardQuestions } from "./backtestWalkForward.ts";

/** One question's result: the chance that the lowest within `withinHours` is at or below `ratio` x the current fee. */
export interface BacktestQuestionResult extends QuestionScore {
  readonly withinHours: number;
  readonly ratio: number;
  /** Forecasts (scored ones) at which the climatology had no earlier known outcome (it then says 0.5). */
  readonly climatologyWithoutHistory: number;
}

/** How often the lowest fee within a horizon fell at or below each forecast quantile (BACKTEST_QUANTILES). */
export interface QuantileCoverage {
  readonly withinHours: number;
  /** Forecasts with a known outcome. */
  readonly outcomes: number;
  /** below[j]: the share of them whose lowest was at or below the forecast BACKTEST_QUANTILES[j] (ideally that quantile). */
  readonly below: readonly number[];
}

export interface BacktestEvaluation {
  /** Horizon by horizon, ratio by ratio. */
  readonly questions: readonly BacktestQuestionResult[];
  readonly coverage: readonly QuantileCoverage[];
  /** The mean of the questions' skills (those that have one); null when none has. */
  readonly meanSkill: number | null;
  /** The calibration error over every scored forecast of every question. */
  readonly calibrationError: number | null;
  /** Per horizon, its questions' forecasts pooled (what `/outlook` reports for that horizon). */
  readonly pooled: readonly (QuestionScore & { readonly withinHours: number })[];
}

/** Scores `forecasts` (made by walkForward over `moments` with `questions`) against `lowest[h]`, each horizon's outcomes. */
export function evaluateReplay(
  moments: BacktestMoments,
  lowest: readonly LowestWithin[],
  forecasts: WalkForwardForecasts,
  questions: WalkForwardQuestions,
): BacktestEvaluation {
  const { withinHours, ratios, firstMoment } = questions;
  const results: BacktestQuestionResult[] = [];
  const coverage: QuantileCoverage[] = [];
  const pooled: (QuestionScore & { readonly withinHours: number })[] = [];
  const all = emptyReliabilityTally();
  for (let h = 0; h < withinHours.length; h += 1) {
    const outcome = lowest[h]!;
    const pool: ScoreTally = emptyScoreTally();
    for (let k = 0; k < ratios.length; k += 1) {
      const ratio = ratios[k]!;
      const reference = climatology(moments, outcome, withinHours[h]!, ratio, firstMoment);
      const probability = forecasts.probability[h]![k]!;
      const tally = emptyScoreTally();
      let withoutHistory = 0;
      for (let n = 0; n < forecasts.count; n += 1) {
        const i = firstMoment + n;
        const lowestFee = outcome[i]!;
        if (Number.isNaN(lowestFee)) continue;
        const happened = lowestFee <= ratio * moments.currentNumber[i]!;
        tallyScore(tally, probability[n]!, reference.probability[n]!, happened);
        tallyScore(pool, probability[n]!, reference.probability[n]!, happened);
        withoutHistory += reference.withoutHistory[n]!;
      }
      addTally(all, tally.reliability);
      results.push({ withinHours: withinHours[h]!, ratio, climatologyWithoutHistory: withoutHistory, ...scoreOf(tally) });
    }
    pooled.push({ withinHours: withinHours[h]!, ...scoreOf(pool) });
    coverage.push(coverageOf(moments, outcome, forecasts.quantile[h]!, forecasts.count, firstMoment, withinHours[h]!));
  }
  const skills = results.flatMap((result) => (result.skill === null ? [] : [result.skill]));
  return {
    questions: results,
    coverage,
    meanSkill: skills.length === 0 ? null : skills.reduce((sum, skill) => sum + skill, 0) / skills.length,
    calibrationError: calibrationError(all),
    pooled,
  };
}

function coverageOf(
  moments: BacktestMoments,
  outcome: LowestWithin,
  quantile: readonly Float64Array[],
  count: number,
  firstMoment: number,
  withinHours: number,
): QuantileCoverage {
  const below = BACKTEST_QUANTILES.map(() => 0);
  let outcomes = 0;
  for (let n = 0; n < count; n += 1) {
    const i = firstMoment + n;
    const lowestFee = outcome[i]!;
    if (Number.isNaN(lowestFee)) continue;
    outcomes += 1;
    for (let j = 0; j < BACKTEST_QUANTILES.length; j += 1) {
      if (lowestFee <= quantile[j]![n]! * moments.currentNumber[i]!) below[j]! += 1;
    }
  }
  return { withinHours, outcomes, below: below.map((hits) => (outcomes === 0 ? 0 : hits / outcomes)) };
}
