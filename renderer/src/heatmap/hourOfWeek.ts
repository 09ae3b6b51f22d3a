// The "cheapest hours" heatmap's arithmetic: the last 7 days in hours of the reader's clock, each hour's median base
// fee placed by local weekday and hour, a colour level per cell, and the cheapest stretches in words.
import type { BaseFeeStatsBucket } from "../../../shared/wire/baseFeeStats.ts";
import type { StatsRequest } from "../live/statsRequest.ts";

const HOUR_S = 3_600;
export const WEEK_HOURS = 7 * 24;

/** The start (unix seconds) of the reader's local hour that holds `seconds`: in a half-hour time zone, not UTC's hour. */
export function localHourStartSeconds(seconds: number): number {
  const hourStart = new Date(seconds * 1000);
  hourStart.setMinutes(0, 0, 0);
  return hourStart.getTime() / 1000;
}

/**
 * The request for the heatmap of the week up to the local hour starting at `hourStartSeconds` (the newest block's,
 * localHourStartSeconds): 168 buckets of one hour, from the start of the local hour 167 hours before it to its end
 * (its bucket fills as its blocks arrive).
 */
export function hourOfWeekRequest(hourStartSeconds: number): StatsRequest & { kind: "span" } {
  const toSeconds = hourStartSeconds + HOUR_S;
  return { kind: "span", fromSeconds: toSeconds - WEEK_HOURS * HOUR_S, toSeconds, bucketSeconds: HOUR_S };
}

/** Monday first, as the rows are drawn. */
export const WEEKDAYS_FROM_MONDAY = [1, 2, 3, 4, 5, 6, 0] as const;

export interface HeatCell {
  /** 0 is Sunday (Date.getDay()). */
  readonly weekday: number;
  readonly hour: number;
  /** The bucket's median (in Gwei, or the unrounded cost), for colour and rank; the exact string is `bucket.p50`. */
  readonly p50: number;
  readonly bucket: BaseFeeStatsBucket;
}

/** `cells[weekday][hour]`, weekday 0 being Sunday; undefined where the hour holds no blocks (or lies outside the span). */
export type HeatGrid = ReadonlyArray<ReadonlyArray<HeatCell | undefined>>;

/**
 * Each bucket that holds blocks, at the local weekday and hour of its start, valued by `valueOf` (its median by default). On the night the clocks go back, two
 * buckets start at the same local hour: the newer one is kept (the older is a week's edge anyway).
 */
export function placeHours(buckets: readonly BaseFeeStatsBucket[], valueOf: (bucket: BaseFeeStatsBucket) => number = (bucket) => Number(bucket.p50)): HeatGrid {
  const cells: Array<Array<HeatCell | undefined>> = Array.from({ length: 7 }, () => new Array<HeatCell | undefined>(24).fill(undefined));
  for (const bucket of buckets) {
    if (bucket.blocks === 0 || bucket.p50 === undefined) continue;
    const start = new Date(bucket.start * 1000);
    const weekday = start.getDay();
    const hour = start.getHours();
    cells[weekday]![hour] = { weekday, hour, p50: valueOf(bucket), bucket };
  }
  return cells;
}

/** Every cell that holds blocks, in week order (Monday 00:00 first). */
export function filledCells(grid: HeatGrid): HeatCell[] {
  return WEEKDAYS_FROM_MONDAY.flatMap((weekday) => grid[weekday]!.filter((cell): cell is HeatCell => cell !== undefined));
}

/**
 * The upper bounds of `levels` colour levels: equal shares of the filled cells (quantiles), so that a week with one
 * spike still spreads its ordinary hours over every colour. A cell's level is the first whose bound it does not exceed.
 */
export function levelBounds(cells: readonly HeatCell[], levels = 5): number[] {
  const sorted = cells.map((cell) => cell.p50).sort((a, b) => a - b);
  if (sorted.length === 0) return [];
  const bounds: number[] = [];
  for (let level = 1; level <= levels; level++) bounds.push(sorted[Math.ceil((level / levels) * sorted.length) - 1]!);
  return bounds;
}

export function levelOf(p50: number, bounds: readonly number[]): number {
  const index = bounds.findIndex((bound) => p50 <= bound);
  return index === -1 ? bounds.length - 1 : index;
}

/** Neighbouring hours of one day, with their mean median. */
export interface Stretch {
  readonly weekday: number;
  readonly fromHour: number;
  /** Exclusive: 24 at the end of a day. */
  readonly toHour: number;
  readonly meanP50: number;
  readonly cells: readonly HeatCell[];
}

/**
 * The cheapest (or dearest) stretches of the week: the cells among the cheapest `share` of the filled ones (at least
 * one), joined into stretches of neighbouring hours of one day, ordered by their mean median, the first `count`.
 */
export function extremeStretches(grid: HeatGrid, order: "cheapest" | "dearest", count = 3, share = 0.1): Stretch[] {
  const cells = filledCells(grid);
  if (cells.length === 0) return [];
  const ranked = [...cells].sort((a, b) => (order === "cheapest" ? a.p50 - b.p50 : b.p50 - a.p50));
  const chosen = new Set(ranked.slice(0, Math.max(1, Math.round(cells.length * share))));
  const stretches: Stretch[] = [];
  for (const weekday of WEEKDAYS_FROM_MONDAY) {
    let run: HeatCell[] = [];
    const close = () => {
      if (run.length > 0) {
        const meanP50 = run.reduce((sum, cell) => sum + cell.p50, 0) / run.length;
        stretches.push({ weekday, fromHour: run[0]!.hour, toHour: run[run.length - 1]!.hour + 1, meanP50, cells: run });
      }
      run = [];
    };
    for (let hour = 0; hour < 24; hour++) {
      const cell = grid[weekday]![hour];
      if (cell !== undefined && chosen.has(cell)) run.push(cell);
      else close();
    }
    close();
  }
  return stretches.sort((a, b) => (order === "cheapest" ? a.meanP50 - b.meanP50 : b.meanP50 - a.meanP50)).slice(0, count);
}

/** With fewer hours held, "the cheapest" and "the dearest" would be the same hour or two: nothing is named yet. */
export const MIN_HOURS_TO_NAME = 6;

/** The three cheapest stretches and the dearest one, or undefined while fewer than MIN_HOURS_TO_NAME hours are held. */
export function weekExtremes(grid: HeatGrid): { readonly cheapest: Stretch[]; readonly dearest: Stretch[] } | undefined {
  if (filledCells(grid).length < MIN_HOURS_TO_NAME) return undefined;
  return { cheapest: extremeStretches(grid, "cheapest", 3), dearest: extremeStretches(grid, "dearest", 1) };
}

const WEEKDAY = new Intl.DateTimeFormat(undefined, { weekday: "short" });
const HOUR = new Intl.DateTimeFormat(undefined, { hour: "numeric" });

/** "Mon", "Tue" … in the reader's language, for weekday 0 (Sunday) to 6. */
export function weekdayName(weekday: number): string {
  // 4 Jan 1970 was a Sunday.
  return WEEKDAY.format(new Date(1970, 0, 4 + weekday, 12));
}

/** "03", "3 AM" … in the reader's clock style, for an hour of the day 0 to 24. */
export function hourName(hour: number): string {
  return HOUR.format(new Date(1970, 0, 5, hour % 24, 0));
}

/** "Sun 02–05", "Sun 2 AM–5 AM". */
export function stretchName(stretch: Stretch): string {
  return `${weekdayName(stretch.weekday)} ${hourName(stretch.fromHour)}–${hourName(stretch.toHour)}`;
}
