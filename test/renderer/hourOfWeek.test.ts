// Local time: each test sets the process' time zone (Node reads TZ again when it is assigned).
import assert from "node:assert/strict";
import { test } from "node:test";
import type { HourlyStatsRow } from "../../shared/wire/hourlyStats.ts";
import {
  extremeStretches,
  filledCells,
  heldDays,
  levelBounds,
  levelOf,
  localHourStartSeconds,
  MIN_HOURS_TO_NAME,
  placeHours,
  priceCells,
  weekExtremes,
  weeksPerCell,
} from "../../renderer/src/heatmap/hourOfWeek.ts";

const HOUR = 3_600;
const WEEK_HOURS = 168;

function row(start: number, p50: string, sampled = false): HourlyStatsRow {
  return { start, blocks: sampled ? 1 : 300, sampled, min: p50, p10: p50, p50, p90: p50, max: p50, last: p50 };
}

/** `weeks` weeks of UTC hours from `from` (a UTC hour), each with `fee(index)` as its median, or none where it gives undefined. */
function hoursFrom(from: number, count: number, fee: (index: number) => string | undefined, sampled = false): HourlyStatsRow[] {
  return Array.from({ length: count }, (_, index) => [from + index * HOUR, fee(index)] as const).flatMap(([start, p50]) =>
    p50 === undefined ? [] : [row(start, p50, sampled)],
  );
}

test("each cell: the nearest-rank median over its weeks of that hour's median, and how many weeks hold it", () => {
  process.env.TZ = "UTC";
  // Monday 2 November 2026, 00:00 UTC, four weeks.
  const from = Date.UTC(2026, 10, 2) / 1000;
  // Week w's hour h: 10 + w * 100 + h, except Monday 05:00, whose weeks read 7, 3, 9, 1 (the median of four is the 2nd: 3).
  const rows = hoursFrom(from, 4 * WEEK_HOURS, (index) => {
    const week = Math.floor(index / WEEK_HOURS);
    const hourOfWeek = index % WEEK_HOURS;
    if (hourOfWeek === 5) return ["7", "3", "9", "1"][week];
    return String(10 + week * 100 + hourOfWeek);
  });
  const grid = placeHours(rows);
  const monday5 = grid[1]![5]!;
  assert.equal(monday5.gwei, "3");
  assert.equal(monday5.weeks, 4);
  // Monday 00:00: 10, 110, 210, 310: the nearest-rank median is the 2nd, 110.
  assert.equal(grid[1]![0]!.gwei, "110");
  assert.equal(grid[1]![0]!.p50, 110);
  assert.equal(grid[1]![0]!.newestStart, from + 3 * WEEK_HOURS * HOUR, "the newest week's hour");
  assert.equal(filledCells(grid).length, 168);
  assert.deepEqual(weeksPerCell(grid), { fewest: 4, most: 4 });
  assert.equal(heldDays(rows), 28);
  // Three weeks of an hour: the median is the middle one, 2nd of 3.
  assert.equal(placeHours(rows.filter((each) => each.start < from + 3 * WEEK_HOURS * HOUR))[1]![0]!.gwei, "110");
  // Ordered by wei, not by text: "9" is below "10".
  const byWei = placeHours([row(from, "10"), row(from + WEEK_HOURS * HOUR, "9"), row(from + 2 * WEEK_HOURS * HOUR, "100")]);
  assert.equal(byWei[1]![0]!.gwei, "10");
});

test("missing hours are left out, never invented: a cell holds the weeks that have its hour, an hour no week has stays empty", () => {
  process.env.TZ = "UTC";
  const from = Date.UTC(2026, 10, 2) / 1000;
  // Three weeks; every Tuesday 03:00 missing, Wednesday 10:00 missing in the first two weeks only.
  const rows = hoursFrom(from, 3 * WEEK_HOURS, (index) => {
    const hourOfWeek = index % WEEK_HOURS;
    if (hourOfWeek === 24 + 3) return undefined;
    if (hourOfWeek === 48 + 10 && index < 2 * WEEK_HOURS) return undefined;
    return String(20 + (index % 7));
  });
  const grid = placeHours(rows);
  assert.equal(grid[2]![3], undefined, "Tuesday 03:00: no week holds it");
  assert.equal(grid[3]![10]!.weeks, 1, "Wednesday 10:00: one week of three");
  assert.equal(grid[1]![0]!.weeks, 3);
  assert.equal(filledCells(grid).length, 167);
  assert.deepEqual(weeksPerCell(grid), { fewest: 1, most: 3 });
  assert.deepEqual(weeksPerCell(placeHours([])), undefined);
  assert.equal(heldDays([]), 0);
});

test("sampled hours count as weeks like any other, and each cell says how many of its weeks were sampled", () => {
  process.env.TZ = "UTC";
  const from = Date.UTC(2026, 10, 2) / 1000;
  const rows = [...hoursFrom(from, 2 * WEEK_HOURS, () => "40", true), ...hoursFrom(from + 2 * WEEK_HOURS * HOUR, WEEK_HOURS, () => "50")];
  const cell = placeHours(rows)[4]![12]!;
  assert.equal(cell.weeks, 3);
  assert.equal(cell.sampledWeeks, 2);
  assert.equal(cell.gwei, "40");
});

test("local time: a half-hour time zone places each UTC hour at its local weekday and hour", () => {
  process.env.TZ = "Asia/Kolkata";
  // Friday 20 November 2026, 18:00 UTC is Friday 23:30 in India; 19:00 UTC is Saturday 00:30.
  const grid = placeHours([row(Date.UTC(2026, 10, 20, 18) / 1000, "5"), row(Date.UTC(2026, 10, 20, 19) / 1000, "6")]);
  assert.equal(grid[5]![23]!.gwei, "5");
  assert.equal(grid[6]![0]!.gwei, "6");
  assert.equal(localHourStartSeconds(Date.UTC(2026, 10, 20, 13, 47) / 1000), Date.UTC(2026, 10, 20, 13, 30) / 1000);
});

test("the night the clocks go back: the doubled local hour counts one week (the newer hour kept), and no cell is left out", () => {
  process.env.TZ = "America/New_York";
  // Two weeks from Monday 26 October 2026, 00:00 EDT; Sunday 1 November 01:00 happens twice (EDT, then EST).
  const from = new Date(2026, 9, 26, 0).getTime() / 1000;
  // 337 real hours: the two weeks' 336 local hours, one of them twice.
  const rows = hoursFrom(from, 2 * WEEK_HOURS + 1, (index) => String(index));
  const grid = placeHours(rows);
  const sundayOne = rows.filter((each) => new Date(each.start * 1000).getDay() === 0 && new Date(each.start * 1000).getHours() === 1);
  assert.equal(sundayOne.length, 3, "01:00 twice on 1 November, once on 8 November");
  assert.equal(grid[0]![1]!.weeks, 2, "two weeks, not three hours");
  // The two weeks' values: the second (EST) 01:00 of 1 November and 8 November's; the median of two is the lower.
  assert.equal(grid[0]![1]!.gwei, sundayOne[1]!.p50);
  assert.equal(filledCells(grid).length, 168);
  assert.equal(grid[0]![23]!.weeks, 2, "Sunday 23:00 of both weeks: the doubled hour pushed nothing out");
  assert.deepEqual(weeksPerCell(grid), { fewest: 2, most: 2 });
});

test("the night the clocks go forward: the skipped local hour holds one week fewer", () => {
  process.env.TZ = "Europe/Berlin";
  // Two weeks from Monday 23 March 2026, 00:00 CET; Sunday 29 March has no 02:00 (01:59 CET is followed by 03:00 CEST).
  const from = new Date(2026, 2, 23, 0).getTime() / 1000;
  const grid = placeHours(hoursFrom(from, 2 * WEEK_HOURS - 1, (index) => String(index)));
  assert.equal(grid[0]![2]!.weeks, 1, "Sunday 02:00: only the second week has it");
  assert.equal(grid[0]![3]!.weeks, 2);
  assert.deepEqual(weeksPerCell(grid), { fewest: 1, most: 2 });
});

test("in money at one price, every cell keeps its colour and rank: cents do not tie hours that differ", () => {
  process.env.TZ = "UTC";
  const from = Date.UTC(2026, 10, 2) / 1000;
  // Hours whose medians differ by less than a cent of an ETH transfer's cost at $1,878.50.
  const grid = placeHours(
    hoursFrom(from, 3 * WEEK_HOURS, (index) => (75 + (((index % WEEK_HOURS) * 37) % 168) * 0.0011 + Math.floor(index / WEEK_HOURS) * 0.0001).toFixed(9)),
  );
  const levelsOf = (cells: ReturnType<typeof filledCells>, value: (cell: (typeof cells)[number]) => number = (cell) => cell.p50) => {
    const values = cells.map(value);
    const bounds = levelBounds(cells.map((cell, index) => ({ ...cell, p50: values[index]! })));
    return values.map((each) => levelOf(each, bounds));
  };
  const inGwei = levelsOf(filledCells(grid));
  for (const price of ["1878.5", "0.01", "250000"]) {
    const priced = filledCells(priceCells(grid, 21_000n, price));
    assert.deepEqual(levelsOf(priced), inGwei, `at ${price}`);
    assert.deepEqual(
      priced.map((cell) => cell.weeks),
      filledCells(grid).map((cell) => cell.weeks),
    );
  }
  const priced = filledCells(priceCells(grid, 21_000n, "1878.5"));
  assert.equal(priced[0]!.money, "2.96", "as the contract rounds money");
  // Ranked by the figures shown (rounded to the cent), the colours would move.
  assert.notDeepEqual(
    levelsOf(priced, (cell) => Number(Number(cell.money).toFixed(2))),
    inGwei,
  );
});

test("colour levels: equal shares of the filled cells, so that one spike does not make every other hour look alike", () => {
  process.env.TZ = "UTC";
  const from = Date.UTC(2026, 10, 2) / 1000;
  const grid = placeHours(hoursFrom(from, WEEK_HOURS, (index) => (index === 100 ? "5000" : String(10 + (index % 20)))));
  const bounds = levelBounds(filledCells(grid), 5);
  assert.equal(bounds.length, 5);
  assert.equal(bounds[4], 5000);
  assert.ok(bounds[3]! < 30, `the spike has the top level to itself and a few others (${bounds.join(", ")})`);
  assert.equal(levelOf(10, bounds), 0);
  assert.equal(levelOf(5000, bounds), 4);
  const levels = filledCells(grid).map((cell) => levelOf(cell.p50, bounds));
  for (let level = 0; level < 5; level++) assert.ok(levels.filter((value) => value === level).length >= 20, `level ${level} is used`);
  assert.deepEqual(levelBounds([]), []);
});

test("the cheapest and dearest stretches: neighbouring cheap hours of a day joined, ordered by their mean", () => {
  process.env.TZ = "UTC";
  const from = Date.UTC(2026, 10, 13, 14) / 1000;
  const cheap = new Map<string, string>([
    ["0 2", "3"], // Sunday 02:00-05:00 at 3, 2, 4
    ["0 3", "2"],
    ["0 4", "4"],
    ["3 23", "1"], // Wednesday 23:00 alone at 1
    ["6 5", "6"], // Saturday 05:00 alone at 6
  ]);
  const grid = placeHours(
    hoursFrom(from, WEEK_HOURS, (index) => {
      const start = new Date((from + index * HOUR) * 1000);
      return cheap.get(`${start.getUTCDay()} ${start.getUTCHours()}`) ?? (start.getUTCHours() === 15 && start.getUTCDay() === 4 ? "90" : "50");
    }),
  );
  const cheapest = extremeStretches(grid, "cheapest", 3, 5 / 168);
  assert.deepEqual(
    cheapest.map(({ weekday, fromHour, toHour, meanP50 }) => [weekday, fromHour, toHour, meanP50]),
    [
      [3, 23, 24, 1],
      [0, 2, 5, 3],
      [6, 5, 6, 6],
    ],
  );
  const dearest = extremeStretches(grid, "dearest", 1, 1 / 168);
  assert.deepEqual(
    dearest.map(({ weekday, fromHour, toHour }) => [weekday, fromHour, toHour]),
    [[4, 15, 16]],
  );
  assert.deepEqual(extremeStretches(placeHours([]), "cheapest"), []);
});

test("the week's extremes are named only once a few hours are held: never one hour as both the cheapest and the dearest", () => {
  process.env.TZ = "UTC";
  const from = Date.UTC(2026, 10, 2) / 1000;
  const heldHours = (count: number) => placeHours(hoursFrom(from, WEEK_HOURS, (index) => (index >= WEEK_HOURS - count ? String(10 + index) : undefined)));
  assert.equal(weekExtremes(heldHours(0)), undefined);
  assert.equal(weekExtremes(heldHours(1)), undefined);
  assert.equal(weekExtremes(heldHours(MIN_HOURS_TO_NAME - 1)), undefined);
  const named = weekExtremes(heldHours(MIN_HOURS_TO_NAME))!;
  assert.equal(named.cheapest[0]!.cells[0]!.p50, 10 + WEEK_HOURS - MIN_HOURS_TO_NAME);
  assert.equal(named.dearest[0]!.cells[0]!.p50, 10 + WEEK_HOURS - 1);
});
