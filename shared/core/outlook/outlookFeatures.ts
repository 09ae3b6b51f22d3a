// What the estimator conditions on: the fee now against the recent past at three scales (3 h, 24 h, 7 d medians of the
// hours' medians), how much the fee has moved hour to hour over the last day, and the time (hour of the day, weekend).
// Built from the hours' p50 so that they mean the same whether an hour was summarised from every block or from one.
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";

export const FEATURE_COUNT = 20;

/** The week of hours behind the newest observed one, and their medians. */
export interface RecentLevels {
  /** Takes the next closed hour (oldest first). */
  observe(hour: HourlySummary): void;
  /** The features of a forecast made at `timestamp` with the fee then (log wei), written into `into`. */
  featuresAt(logCurrent: number, timestamp: number, into: Float64Array): Float64Array;
  /** Whether any hour is held. */
  readonly empty: boolean;
}

const WEEK_HOURS = 168;
/** Levels further than e^3 (20x) from their median are clamped: a fee spike should not dominate a linear model. */
const LEVEL_LIMIT = 3;

/** The natural log of a fee in wei, 1 wei at least (a chain may have a base fee of 0). */
export function logWei(fee: bigint): number {
  return Math.log(fee > 1n ? Number(fee) : 1);
}

export function createRecentLevels(): RecentLevels {
  const starts: number[] = [];
  const logMedians: number[] = [];
  const logMins: number[] = [];
  let lowest24 = 0;
  let lowest6 = 0;
  const profile = new Float64Array(24);

  let lowTenth168 = 0;
  let median3 = 0;
  let median24 = 0;
  let median168 = 0;
  let volatility24 = 0;

  // Scratch for the sorts (a week holds at most WEEK_HOURS hours): sorting a Float64Array needs no comparator, and so
  // allocates nothing an hour.
  const scratch = new Float64Array(WEEK_HOURS);

  /** The median of the first `count` values of the scratch, sorting them. */
  function scratchMedian(count: number): number {
    const values = scratch.subarray(0, count).sort();
    const middle = count >> 1;
    return count % 2 === 1 ? (values[middle] as number) : ((values[middle - 1] as number) + (values[middle] as number)) / 2;
  }

  function medianSince(from: number): number {
    let count = 0;
    for (let i = starts.length - 1; i >= 0 && (starts[i] as number) >= from; i--) scratch[count++] = logMedians[i] as number;
    return scratchMedian(count);
  }

  return {
    observe(hour: HourlySummary): void {
      starts.push(hour.start);
      logMedians.push(logWei(hour.p50));
      logMins.push(logWei(hour.min));
      const weekAgo = hour.start - (WEEK_HOURS - 1) * HOUR_SECONDS;
      let drop = 0;
      while ((starts[drop] as number) < weekAgo) drop++;
      if (drop > 0) {
        starts.splice(0, drop);
        logMedians.splice(0, drop);
        logMins.splice(0, drop);
      }
      median3 = medianSince(hour.start - 2 * HOUR_SECONDS);
      median24 = medianSince(hour.start - 23 * HOUR_SECONDS);
      median168 = medianSince(weekAgo);
      lowest24 = Number.POSITIVE_INFINITY;
      for (let i = starts.length - 1; i >= 0 && (starts[i] as number) >= hour.start - 23 * HOUR_SECONDS; i--)
        lowest24 = Math.min(lowest24, logMins[i] as number);
      lowest6 = Number.POSITIVE_INFINITY;
      for (let i = starts.length - 1; i >= 0 && (starts[i] as number) >= hour.start - 5 * HOUR_SECONDS; i--) lowest6 = Math.min(lowest6, logMins[i] as number);
      for (let i = 0; i < logMins.length; i++) scratch[i] = logMins[i] as number;
      lowTenth168 = scratch.subarray(0, logMins.length).sort()[Math.floor(0.1 * (logMins.length - 1))] as number;
      // The week's profile of the hours' minimums by hour of the day (median per hour; the week's tenth percentile where
      // an hour of the day has no sample).
      for (let hourOfDay = 0; hourOfDay < 24; hourOfDay++) {
        let count = 0;
        for (let i = 0; i < starts.length; i++) if (((starts[i] as number) / HOUR_SECONDS) % 24 === hourOfDay) scratch[count++] = logMins[i] as number;
        profile[hourOfDay] = count === 0 ? lowTenth168 : scratchMedian(count);
      }
      // Mean absolute change between consecutive hours of the last day (pairs across a gap are skipped).
      let moves = 0;
      let pairs = 0;
      for (let i = starts.length - 1; i > 0 && (starts[i - 1] as number) >= hour.start - 23 * HOUR_SECONDS; i--) {
        if ((starts[i] as number) - (starts[i - 1] as number) !== HOUR_SECONDS) continue;
        moves += Math.abs((logMedians[i] as number) - (logMedians[i - 1] as number));
        pairs++;
      }
      volatility24 = pairs > 0 ? moves / pairs : 0;
    },

    featuresAt(logCurrent: number, timestamp: number, into: Float64Array): Float64Array {
      const clamp = (value: number): number => Math.max(-LEVEL_LIMIT, Math.min(LEVEL_LIMIT, value));
      const empty = starts.length === 0;
      const against24 = empty ? 0 : clamp(logCurrent - median24);
      const hourOfDay = ((timestamp / HOUR_SECONDS) % 24) / 24;
      const dayOfWeek = Math.floor(timestamp / 86_400 + 4) % 7; // 1970-01-01 was a Thursday: 0 is Sunday
      into[0] = 1;
      into[1] = empty ? 0 : clamp(logCurrent - median168);
      into[2] = against24;
      into[3] = empty ? 0 : clamp(logCurrent - median3);
      into[4] = Math.max(0, against24);
      into[5] = volatility24;
      into[6] = Math.sin(2 * Math.PI * hourOfDay);
      into[7] = Math.cos(2 * Math.PI * hourOfDay);
      into[8] = Math.sin(4 * Math.PI * hourOfDay);
      into[9] = Math.cos(4 * Math.PI * hourOfDay);
      into[10] = dayOfWeek === 0 || dayOfWeek === 6 ? 1 : 0;
      into[11] = empty ? 0 : clamp(logCurrent - lowest24);
      into[12] = empty ? 0 : clamp(logCurrent - lowTenth168);
      into[13] = empty ? 0 : clamp(logCurrent - lowest6);
      into[14] = Math.max(0, into[1]);
      // The fee now against the cheapest hour of the coming 1, 3, 6, 12 and 24 in the week's profile.
      const firstHour = Math.floor(timestamp / HOUR_SECONDS) % 24;
      let cheapest = Number.POSITIVE_INFINITY;
      let feature = 15;
      for (let k = 0; k < 24; k++) {
        cheapest = Math.min(cheapest, profile[(firstHour + k) % 24] as number);
        if (k === 0 || k === 2 || k === 5 || k === 11 || k === 23) into[feature++] = empty ? 0 : clamp(logCurrent - cheapest);
      }
      return into;
    },

    get empty(): boolean {
      return starts.length === 0;
    },
  };
}
