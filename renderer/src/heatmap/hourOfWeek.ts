// The "cheapest hours" heatmap's arithmetic: the chain's hourly summaries (GET /networks/{chainId}/hourlyStats, every
// week held) placed by the reader's local weekday and hour, each cell the median over its weeks of that hour's median
// base fee, a colour level per cell, and the cheapest stretches in words.
import { parseGweiAmount } from "../../../shared/core/fees/parseGweiAmount.ts";
import { nearestRankIndex } from "../../../shared/core/fees/percentile.ts";
import { fiatOfWei } from "../../../shared/core/text/money.ts";
import type { HourlyStatsRow } from "../../../shared/wire/hourlyStats.ts";

const HOUR_S = 3_600;

/** The start (unix seconds) of the reader's local hour that holds `seconds`: in a half-hour time zone, not UTC's hour. */
export function localHourStartSeconds(seconds: number): number {
  const hourStart = new Date(seconds * 1000);
  hourStart.setMinutes(0, 0, 0);
  return hourStart.getTime() / 1000;
}

/** Monday first, as the rows are drawn. */
export const WEEKDAYS_FROM_MONDAY = [1, 2, 3, 4, 5, 6, 0] as const;

export interface HeatCell {
  /** 0 is Sunday (Date.getDay()). */
  readonly weekday: number;
  readonly hour: number;
  /** The cell's value, for colour and rank: its median in Gwei, or (priceCells) the cost of one action at it, unrounded. */
  readonly p50: number;
  /** The cell's median exactly: one held hour's p50, in Gwei as the API wrote it. */
  readonly gwei: string;
  /** In money (priceCells): the cost of one action at the median, as the contract rounds money. */
  readonly money?: string | undefined;
  /** How many weeks hold this hour: the days (of this weekday) with a summary of it. */
  readonly weeks: number;
  /** Of those weeks, how many summaries were built from a sample of the hour's blocks (an outlook backfill, the demo's past). */
  readonly sampledWeeks: number;
  /** The start (unix seconds) of the newest hour placed here. */
  readonly newestStart: number;
}

/** `cells[weekday][hour]`, weekday 0 being Sunday; undefined where no week holds the hour. */
export type HeatGrid = ReadonlyArray<ReadonlyArray<HeatCell | undefined>>;

/** A day as the reader's calendar names it: one a week for a given weekday. */
function localDateKey(date: Date): string {
  return `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
}

/**
 * Each summary at the local weekday and hour of its start; a cell's value is the nearest-rank median of its hours' p50
 * (each week's hour counts once, whatever it was built from: a sampled hour's p50 is its sampled block's fee), so it is
 * always a fee some hour had. A week counts once per cell: on the night the clocks go back, two hours start at the same
 * local hour of one day, and the newer one is kept; on the night they go forward, the skipped local hour holds one week
 * fewer. An hour without a summary (never seen, or a gap) is left out, never invented.
 */
export function placeHours(rows: readonly HourlyStatsRow[]): HeatGrid {
  const byCell = new Map<number, Map<string, { readonly row: HourlyStatsRow; readonly wei: bigint }>>();
  for (const row of rows) {
    const amount = parseGweiAmount(row.p50);
    if (!("wei" in amount)) continue;
    const start = new Date(row.start * 1000);
    const key = start.getDay() * 24 + start.getHours();
    const days = byCell.get(key) ?? new Map<string, { readonly row: HourlyStatsRow; readonly wei: bigint }>();
    byCell.set(key, days);
    const day = localDateKey(start);
    const held = days.get(day);
    if (held === undefined || held.row.start < row.start) days.set(day, { row, wei: amount.wei });
  }
  const cells: Array<Array<HeatCell | undefined>> = Array.from({ length: 7 }, () => new Array<HeatCell | undefined>(24).fill(undefined));
  for (const [key, days] of byCell) {
    const held = [...days.values()];
    const sorted = [...held].sort((a, b) => (a.wei < b.wei ? -1 : a.wei > b.wei ? 1 : 0));
    const median = sorted[nearestRankIndex(sorted.length, 50)]!;
    const weekday = Math.floor(key / 24);
    const hour = key % 24;
    cells[weekday]![hour] = {
      weekday,
      hour,
      p50: Number(median.row.p50),
      gwei: median.row.p50,
      weeks: held.length,
      sampledWeeks: held.filter((entry) => entry.row.sampled).length,
      newestStart: Math.max(...held.map((entry) => entry.row.start)),
    };
  }
  return cells;
}

/**
 * The map in money: each cell's median base fee as the cost of `gas` at one `price` (the newest held). Price points are
 * kept for the history's horizon only, not for the weeks of summaries, so every cell is priced alike: a cell's colour
 * and rank are then its base fee's, at any price (ranked by the unrounded cost; rounded to the cent, hours whose fees
 * differ would tie).
 */
export function priceCells(grid: HeatGrid, gas: bigint, price: string): HeatGrid {
  const perGwei = (Number(gas) * Number(price)) / 1e9;
  return grid.map((row) =>
    row.map((cell) => {
      if (cell === undefined) return undefined;
      const amount = parseGweiAmount(cell.gwei);
      return { ...cell, p50: cell.p50 * perGwei, money: "wei" in amount ? fiatOfWei(amount.wei * gas, price) : undefined };
    }),
  );
}

/** The fewest and the most weeks a filled cell holds; undefined while no cell is filled. */
export function weeksPerCell(grid: HeatGrid): { readonly fewest: number; readonly most: number } | undefined {
  const weeks = filledCells(grid).map((cell) => cell.weeks);
  return weeks.length === 0 ? undefined : { fewest: Math.min(...weeks), most: Math.max(...weeks) };
}

/** The time the summaries cover, from the oldest hour's start to the newest hour's end, in days (0 when none). */
export function heldDays(rows: readonly HourlyStatsRow[]): number {
  if (rows.length === 0) return 0;
  return (rows[rows.length - 1]!.start + HOUR_S - rows[0]!.start) / 86_400;
}

/** Every cell that holds an hour, in week order (Monday 00:00 first). */
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
