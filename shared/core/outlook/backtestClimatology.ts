// The reference a forecast must beat: the frequency of the same event over the 28 days before it.
import type { BacktestMoments, LowestWithin } from "./backtestMoments.ts";
import { HOUR_SECONDS } from "./hourlySummary.ts";

/** How far back the climatology looks (CONTRACT.md: "the 28 days before each forecast"). */
export const CLIMATOLOGY_DAYS = 28;
/** The climatology's probability when no earlier outcome is known in its window: no knowledge either way. */
export const CLIMATOLOGY_WITHOUT_HISTORY = 0.5;

export interface Climatology {
  /** The probability at each forecast moment (firstMoment + n). */
  readonly probability: Float64Array;
  /** 1 where the moment had no earlier known outcome and took CLIMATOLOGY_WITHOUT_HISTORY, else 0. */
  readonly withoutHistory: Uint8Array;
}

/**
 * For each moment t from `firstMoment` on: the share of earlier moments s in [t - 28 d, t - H] (their outcome known by
 * t, since (s, s + H] ends by t) whose lowest within H was at or below `ratio` x their current fee. Moments whose outcome
 * is unknown (no sample in their horizon) are left out; with none left, CLIMATOLOGY_WITHOUT_HISTORY.
 */
export function climatology(moments: BacktestMoments, lowest: LowestWithin, withinHours: number, ratio: number, firstMoment: number): Climatology {
  const { times, currentNumber } = moments;
  const count = Math.max(0, times.length - firstMoment);
  const horizon = withinHours * HOUR_SECONDS;
  const window = CLIMATOLOGY_DAYS * 86_400;
  const probability = new Float64Array(count);
  const withoutHistory = new Uint8Array(count);
  // The window [from, to) of earlier moments and its counts of known outcomes and events, both ends moving forward.
  let from = 0;
  let to = 0;
  let known = 0;
  let events = 0;
  for (let n = 0; n < count; n += 1) {
    const t = times[firstMoment + n]!;
    while (to < times.length && times[to]! <= t - horizon) {
      if (!Number.isNaN(lowest[to]!)) {
        known += 1;
        if (lowest[to]! <= ratio * currentNumber[to]!) events += 1;
      }
      to += 1;
    }
    while (from < to && times[from]! < t - window) {
      if (!Number.isNaN(lowest[from]!)) {
        known -= 1;
        if (lowest[from]! <= ratio * currentNumber[from]!) events -= 1;
      }
      from += 1;
    }
    if (known === 0) {
      probability[n] = CLIMATOLOGY_WITHOUT_HISTORY;
      withoutHistory[n] = 1;
    } else probability[n] = events / known;
  }
  return { probability, withoutHistory };
}
