// The "Wait or pay now" panel's figures and words, from the outlook's answers: the ribbon over the horizons, the
// chance of a price, the track record and its reliability chart, and how long until there is enough history.
import type { OutlookBacktest, OutlookBody } from "../../../shared/wire/outlook.ts";
import { OUTLOOK_NEEDED_DAYS } from "../../../shared/wire/outlook.ts";
import { type OutlookMoney, type ShownValue, shownValueOf } from "./outlookMoney.ts";

/** The horizons the panel offers and draws, in hours. */
export const OUTLOOK_HORIZONS = [1, 3, 6, 12, 24] as const;
export type OutlookHorizon = (typeof OUTLOOK_HORIZONS)[number];
export const DEFAULT_HORIZON: OutlookHorizon = 6;

/** A stored horizon read back: one of OUTLOOK_HORIZONS, else the default. */
export function horizonOf(stored: string | null): OutlookHorizon {
  const hours = Number(stored);
  return OUTLOOK_HORIZONS.find((horizon) => horizon === hours) ?? DEFAULT_HORIZON;
}

const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** "1 h", "24 h". */
export function horizonText(hours: number): string {
  return `${hours} h`;
}

/** One horizon of the ribbon: the lowest cost likely within it (p10 to p90, p50 the line), in the panel's money. */
export interface RibbonRow {
  readonly hours: number;
  readonly p10: ShownValue;
  readonly p50: ShownValue;
  readonly p90: ShownValue;
  /** [p10, p90] for the band. */
  readonly band: readonly [number, number];
  readonly p50Value: number;
}

/** The ribbon's rows from the answers held per horizon (missing horizons are left out), shortest horizon first. */
export function ribbonRows(answers: ReadonlyMap<number, OutlookBody>, money: OutlookMoney): RibbonRow[] {
  return [...answers]
    .sort(([a], [b]) => a - b)
    .map(([hours, body]) => {
      const p10 = shownValueOf(money, body.lowest.p10);
      const p50 = shownValueOf(money, body.lowest.p50);
      const p90 = shownValueOf(money, body.lowest.p90);
      return { hours, p10, p50, p90, band: [p10.value, p90.value] as const, p50Value: p50.value };
    });
}

/** A chance for reading: "41%", "under 1%", "over 99%" (a forecast is never sure). */
export function chanceText(probability: number): string {
  if (probability < 0.01) return probability === 0 ? "about 0%" : "under 1%";
  if (probability > 0.99) return probability === 1 ? "about 100%" : "over 99%";
  return `${Math.round(probability * 100)}%`;
}

/** A reliability bin as a point of the chart: what it said on average (x) against how often it happened (y). */
export interface ReliabilityPoint {
  readonly said: number;
  readonly happened: number;
  readonly forecasts: number;
  readonly from: number;
  readonly to: number;
}

/** The backtest's non-empty tenths as points, lowest first. */
export function reliabilityPoints(backtest: OutlookBacktest): ReliabilityPoint[] {
  return backtest.reliability.flatMap((bin) =>
    bin.forecasts === 0 || bin.meanProbability === null || bin.observed === null
      ? []
      : [{ said: bin.meanProbability, happened: bin.observed, forecasts: bin.forecasts, from: bin.from, to: bin.to }],
  );
}

/** A tenth with fewer forecasts than this is not quoted in the headline: its share could be chance. */
const MIN_QUOTED_FORECASTS = 20;
/** The headline quotes the tenth nearest this chance (the example, "when it said 70%"), among those well filled. */
const QUOTED_NEAR = 0.7;

/** The track record in words, for one horizon. */
export interface TrackRecordWords {
  /** "When it said about 70%, it happened 68% of the time, over 1,344 hours." or why it cannot be said yet. */
  readonly headline: string;
  /** How it compares with the plain guess (climatology), in words; undefined without forecasts. */
  readonly skill: string | undefined;
  /** The mean distance, in points, between what it said and what happened, weighted by forecasts; undefined without forecasts. */
  readonly offByPoints: number | undefined;
}

/**
 * The track record of the outlook for `withinHours`: the headline quotes the well-filled tenth nearest 70% ("when it
 * said about 70%, it happened 68% of the time"), over the hours the backtest replayed (the basis' hours); the skill
 * against climatology in plain words.
 */
export function trackRecordWords(backtest: OutlookBacktest, basisHours: number, withinHours: number): TrackRecordWords {
  const points = reliabilityPoints(backtest);
  const total = points.reduce((sum, point) => sum + point.forecasts, 0);
  if (backtest.forecasts === 0 || total === 0) {
    return {
      headline: `No forecast of the lowest fee within ${horizonText(withinHours)} could be checked yet: the replay needs hours whose next ${horizonText(withinHours)} are held.`,
      skill: undefined,
      offByPoints: undefined,
    };
  }
  const filled = points.filter((point) => point.forecasts >= MIN_QUOTED_FORECASTS);
  const candidates = filled.length > 0 ? filled : points;
  const quoted = candidates.reduce((best, point) => (Math.abs(point.said - QUOTED_NEAR) < Math.abs(best.said - QUOTED_NEAR) ? point : best));
  const said = Math.round(quoted.said * 100);
  const happened = Math.round(quoted.happened * 100);
  const headline =
    `When it said about ${said}%, it happened ${happened}% of the time` +
    ` (${GROUPED.format(quoted.forecasts)} forecast${quoted.forecasts === 1 ? "" : "s"}),` +
    ` over ${GROUPED.format(basisHours)} hour${basisHours === 1 ? "" : "s"} replayed.`;
  const offBy = points.reduce((sum, point) => sum + Math.abs(point.said - point.happened) * point.forecasts, 0) / total;
  return { headline, skill: skillWords(backtest), offByPoints: Math.round(offBy * 1000) / 10 };
}

/**
 * The skill against climatology (1 - Brier / the climatology's Brier) in plain words: how much better its chances
 * were than the plain guess "as often as in the 28 days before".
 */
export function skillWords(backtest: OutlookBacktest): string | undefined {
  const { skill, brier, brierClimatology } = backtest;
  if (skill === null || brier === null || brierClimatology === null) return undefined;
  const scores = `Brier score ${brier.toFixed(3)} against ${brierClimatology.toFixed(3)}; lower is better`;
  const guess = "the plain guess, how often it happened in the 28 days before";
  const percent = Math.round(Math.abs(skill) * 100);
  if (percent === 0) return `No better than ${guess} (${scores}).`;
  if (skill > 0) return `${percent}% better than ${guess} (${scores}).`;
  return `${percent}% worse than ${guess} (${scores}): take its chances with care.`;
}

/** "1.3 points", "1 point", "0 points": how far off it was on average. */
export function pointsText(points: number): string {
  return `${points} point${points === 1 ? "" : "s"}`;
}

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 };

/** A duration of the API ("9d", "220h", "9d 3h", "9.5d"), in seconds; undefined when it is not one. */
export function durationSeconds(text: string): number | undefined {
  const parts = [...text.trim().matchAll(/([0-9]+(?:\.[0-9]+)?)\s*(s|m|h|d|w)(?![a-z])/g)];
  if (
    parts.length === 0 ||
    parts
      .map((part) => part[0])
      .join("")
      .replace(/\s/g, "") !== text.replace(/\s/g, "")
  )
    return undefined;
  return parts.reduce((sum, part) => sum + Number(part[1]) * UNIT_SECONDS[part[2]!]!, 0);
}

/** "4 days 21 h", "3 h", "under an hour": a span of time for reading, to the hour. */
export function spanWords(seconds: number): string {
  const hours = Math.floor(seconds / 3_600);
  if (hours < 1) return "under an hour";
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  const dayWords = days === 0 ? "" : `${days} day${days === 1 ? "" : "s"}`;
  const hourWords = rest === 0 ? "" : `${rest} h`;
  return [dayWords, hourWords].filter((words) => words !== "").join(" ");
}

/** What the panel says before the service holds 14 days of hourly summaries (422 NOT_ENOUGH_HISTORY). */
export interface NotEnoughWords {
  readonly held: string;
  readonly needed: string;
  /** "about 4 days 21 h", or undefined when the service's durations cannot be read. */
  readonly toGo: string | undefined;
  /** The share held, 0 to 1, for a bar; undefined as toGo. */
  readonly share: number | undefined;
}

/**
 * How much history is held, how much the outlook needs and how long until it has it: the service keeps an hourly
 * summary per hour, so what is missing comes at one hour an hour (sooner while it fetches older blocks).
 */
export function notEnoughWords(held: string, needed: string): NotEnoughWords {
  const heldSeconds = durationSeconds(held);
  const neededSeconds = durationSeconds(needed) ?? OUTLOOK_NEEDED_DAYS * 86_400;
  const neededWords = spanWords(neededSeconds);
  if (heldSeconds === undefined) return { held, needed: neededWords, toGo: undefined, share: undefined };
  const missing = Math.max(0, neededSeconds - heldSeconds);
  return {
    held: spanWords(heldSeconds) === "under an hour" ? "less than an hour" : spanWords(heldSeconds),
    needed: neededWords,
    toGo: missing < 3_600 ? "less than an hour" : `about ${spanWords(missing)}`,
    share: Math.min(1, heldSeconds / neededSeconds),
  };
}
