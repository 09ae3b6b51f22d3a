// Local time: each test sets the process' time zone (Node reads TZ again when it is assigned).
import assert from "node:assert/strict";
import { test } from "node:test";
import type { BaseFeeStatsBucket } from "../../shared/wire/baseFeeStats.ts";
import {
  extremeStretches,
  filledCells,
  hourOfWeekRequest as requestAtHourStart,
  levelBounds,
  levelOf,
  localHourStartSeconds,
  MIN_HOURS_TO_NAME,
  placeHours,
  WEEK_HOURS,
  weekExtremes,
} from "../../renderer/src/heatmap/hourOfWeek.ts";

/** The heatmap's request for the week up to the local hour of `nowMs`. */
const hourOfWeekRequest = (nowMs: number) => requestAtHourStart(localHourStartSeconds(nowMs / 1000));

function hourBucket(start: number, p50: string | undefined): BaseFeeStatsBucket {
  if (p50 === undefined) return { start, end: start + 3_600, blocks: 0 };
  return { start, end: start + 3_600, blocks: 300, fromBlock: "1", toBlock: "300", min: p50, p10: p50, p25: p50, p50, p75: p50, p90: p50, max: p50 };
}

/** The week's buckets as the service would answer the request, with `fee(index)` as each hour's median. */
function weekOf(fromSeconds: number, fee: (index: number) => string | undefined): BaseFeeStatsBucket[] {
  return Array.from({ length: WEEK_HOURS }, (_, index) => hourBucket(fromSeconds + index * 3_600, fee(index)));
}

test("the request: 168 hours of the reader's clock, the current one last", () => {
  process.env.TZ = "Asia/Kolkata";
  const now = Date.UTC(2026, 10, 20, 13, 47, 12);
  const request = hourOfWeekRequest(now);
  // 19:17 in India: the current hour is 19:00-20:00 local, 13:30-14:30 UTC.
  assert.equal(request.toSeconds, Date.UTC(2026, 10, 20, 14, 30) / 1000);
  assert.equal(request.fromSeconds, request.toSeconds - 168 * 3_600);
  assert.equal(request.bucketSeconds, 3_600);
  assert.equal(hourOfWeekRequest(now + 40 * 60_000).toSeconds, request.toSeconds, "the same request all hour long");
  assert.equal(hourOfWeekRequest(now + 45 * 60_000).toSeconds, request.toSeconds + 3_600, "the next at 20:00 local");
});

test("each hour lands at its local weekday and hour; hours without blocks stay empty", () => {
  process.env.TZ = "Asia/Kolkata";
  const request = hourOfWeekRequest(Date.UTC(2026, 10, 20, 13, 47, 12));
  // Friday 20 November 2026, 19:00 local is the last bucket; index 0 is Friday 13 November, 20:00.
  const grid = placeHours(weekOf(request.fromSeconds, (index) => (index % 10 === 3 ? undefined : String(index))));
  assert.equal(grid[5]![20]!.p50, 0, "Friday 20:00 a week ago");
  assert.equal(grid[5]![19]!.p50, 167, "Friday 19:00, the current hour");
  assert.equal(grid[6]![0]!.p50, 4, "Saturday 00:00");
  assert.equal(grid[5]![23], undefined, "index 3: no blocks");
  assert.equal(filledCells(grid).length, 168 - 17);
  // Week order: Monday 00:00 first, Sunday 23:00 last.
  const order = filledCells(grid).map((cell) => ((cell.weekday + 6) % 7) * 24 + cell.hour);
  assert.deepEqual(
    order,
    [...order].sort((a, b) => a - b),
  );
  assert.deepEqual([filledCells(grid)[0]!.weekday, filledCells(grid)[0]!.hour], [1, 0]);
});

test("the night the clocks go back: the newer of the two 01:00 hours is kept, and no cell is left out by it", () => {
  process.env.TZ = "America/New_York";
  // Sunday 1 November 2026, 01:00 happens twice (EDT, then EST).
  const request = hourOfWeekRequest(new Date(2026, 10, 4, 12, 30).getTime());
  const buckets = weekOf(request.fromSeconds, (index) => String(index));
  const grid = placeHours(buckets);
  const firstOne = buckets.findIndex((bucket) => new Date(bucket.start * 1000).getDay() === 0 && new Date(bucket.start * 1000).getHours() === 1);
  assert.equal(grid[0]![1]!.p50, firstOne + 1, "the second 01:00 (EST) replaces the first");
  assert.equal(filledCells(grid).length, 167, "one local hour fewer than real hours that week");
});

test("colour levels: equal shares of the filled hours, so that one spike does not make every other hour look alike", () => {
  process.env.TZ = "UTC";
  const request = hourOfWeekRequest(Date.UTC(2026, 10, 20, 13, 47));
  const grid = placeHours(weekOf(request.fromSeconds, (index) => (index === 100 ? "5000" : String(10 + (index % 20)))));
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
  // Friday 20 November 2026 13:00 UTC is the current hour: the week starts Friday 13 November 14:00.
  const request = hourOfWeekRequest(Date.UTC(2026, 10, 20, 13, 47));
  const cheap = new Map<string, string>([
    ["0 2", "3"], // Sunday 02:00-05:00 at 3, 2, 4
    ["0 3", "2"],
    ["0 4", "4"],
    ["3 23", "1"], // Wednesday 23:00 alone at 1
    ["6 5", "6"], // Saturday 05:00 alone at 6
  ]);
  const grid = placeHours(
    weekOf(request.fromSeconds, (index) => {
      const start = new Date((request.fromSeconds + index * 3_600) * 1000);
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
  const request = hourOfWeekRequest(Date.UTC(2026, 10, 20, 13, 47));
  const heldHours = (count: number) => placeHours(weekOf(request.fromSeconds, (index) => (index >= WEEK_HOURS - count ? String(10 + index) : undefined)));
  assert.equal(weekExtremes(heldHours(0)), undefined);
  assert.equal(weekExtremes(heldHours(1)), undefined);
  assert.equal(weekExtremes(heldHours(MIN_HOURS_TO_NAME - 1)), undefined);
  const named = weekExtremes(heldHours(MIN_HOURS_TO_NAME))!;
  assert.equal(named.cheapest[0]!.cells[0]!.p50, 10 + WEEK_HOURS - MIN_HOURS_TO_NAME);
  assert.equal(named.dearest[0]!.cells[0]!.p50, 10 + WEEK_HOURS - 1);
});
