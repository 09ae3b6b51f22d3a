// The outlook's figures in wei, from a forecast in ratios of the current base fee (CONTRACT.md, "Outlook: wait or pay
// now"), and what the summaries behind it hold.
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";
import type { LowestFeeForecast } from "./outlookEstimator.ts";

/** Past this, a wei amount no longer fits a double's integers and the product is taken in bigint parts. */
const EXACT_DOUBLE_WEI = 2n ** 52n;
const RATIO_SCALE = 2 ** 40;

/** `ratio` (0 or more) x `wei`, rounded to whole wei (half up). */
export function weiTimesRatio(wei: bigint, ratio: number): bigint {
  if (!(ratio >= 0) || !Number.isFinite(ratio)) throw new RangeError(`a ratio must be a finite number of 0 or more (got ${ratio})`);
  if (wei < EXACT_DOUBLE_WEI) return BigInt(Math.round(ratio * Number(wei)));
  const scaled = BigInt(Math.round(ratio * RATIO_SCALE));
  const denominator = BigInt(RATIO_SCALE);
  return (wei * scaled * 2n + denominator) / (denominator * 2n);
}

/** `threshold` / `current` as a double: the ratio a Gwei threshold stands for now. */
export function ratioOf(threshold: bigint, current: bigint): number {
  if (current <= 0n) return threshold > 0n ? Number.MAX_VALUE : 1;
  return Number((threshold * 1_000_000_000_000n) / current) / 1e12;
}

export interface LowestFees {
  readonly p10: bigint;
  readonly p50: bigint;
  readonly p90: bigint;
}

/** The forecast's p10, p50 and p90 of the lowest base fee within H, in wei at the current base fee. */
export function lowestFeesOf(forecast: LowestFeeForecast, current: bigint): LowestFees {
  const at = (q: number) => weiTimesRatio(current, Math.max(0, forecast.quantileRatio(q)));
  return { p10: at(0.1), p50: at(0.5), p90: at(0.9) };
}

/** The chance (0..1) that the lowest base fee within H is at or below `threshold` wei. */
export function probabilityAtOrBelowWei(forecast: LowestFeeForecast, current: bigint, threshold: bigint): number {
  return clampProbability(forecast.probabilityAtOrBelow(ratioOf(threshold, current)));
}

export function clampProbability(probability: number): number {
  return Number.isNaN(probability) ? 0 : Math.min(1, Math.max(0, Math.round(probability * 10_000) / 10_000));
}

/** What the summaries behind an outlook hold (its `basis`). */
export interface OutlookBasis {
  /** Unix seconds: the oldest hour's start, the newest hour's end (both 0 without summaries). */
  readonly from: number;
  readonly to: number;
  readonly hours: number;
  readonly sampledHours: number;
  /** Hours held in weeks, to a tenth. */
  readonly weeks: number;
}

export function outlookBasisOf(summaries: readonly HourlySummary[]): OutlookBasis {
  const oldest = summaries[0];
  const newest = summaries.at(-1);
  let sampledHours = 0;
  for (const hour of summaries) if (hour.sampled) sampledHours += 1;
  return {
    from: oldest?.start ?? 0,
    to: newest === undefined ? 0 : newest.start + HOUR_SECONDS,
    hours: summaries.length,
    sampledHours,
    weeks: Math.round((summaries.length / (7 * 24)) * 10) / 10,
  };
}

/** Hours as the contract writes a duration: whole days as "<n>d", else "<n>h" ("13d", "200h", "0h"). */
export function hoursAsDuration(hours: number): string {
  return hours > 0 && hours % 24 === 0 ? `${hours / 24}d` : `${hours}h`;
}
