// Local time: each test sets the process' time zone (Node reads TZ again when it is assigned).
import assert from "node:assert/strict";
import { test } from "node:test";
import { timeTicks, timeTickStep } from "../../renderer/src/chart/timeTicks.ts";

/** "HH:MM" of a unix time in the process' zone, with "Day" at midnights. */
function local(seconds: number): string {
  const date = new Date(seconds * 1000);
  const clock = `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
  return `${date.getDate()} ${clock}`;
}

test("the step: the shortest round one that keeps the ticks at or under the count", () => {
  assert.equal(timeTickStep(3_600, 8), 600);
  assert.equal(timeTickStep(86_400, 8), 3 * 3_600);
  assert.equal(timeTickStep(86_400, 6), 6 * 3_600);
  assert.equal(timeTickStep(604_800, 8), 86_400);
  assert.equal(timeTickStep(604_800, 6), 2 * 86_400);
});

test("ticks at round moments of the local clock, in a whole-hour and a half-hour time zone", () => {
  process.env.TZ = "UTC";
  const from = Date.UTC(2026, 10, 20, 13, 47, 12) / 1000;
  assert.deepEqual(
    timeTicks(from, from + 3_600).map((tick) => local(tick.seconds)),
    ["20 13:50", "20 14:00", "20 14:10", "20 14:20", "20 14:30", "20 14:40"],
  );
  process.env.TZ = "Asia/Kolkata";
  // 13:47 UTC is 19:17 in India: the ticks fall on India's round hours, which are at :30 in UTC.
  const ticks = timeTicks(from, from + 86_400);
  assert.deepEqual(
    ticks.map((tick) => local(tick.seconds)),
    ["20 21:00", "21 00:00", "21 03:00", "21 06:00", "21 09:00", "21 12:00", "21 15:00", "21 18:00"],
  );
  assert.deepEqual(
    ticks.map((tick) => tick.midnight),
    [false, true, false, false, false, false, false, false],
  );
  assert.equal(new Date(ticks[1]!.seconds * 1000).getUTCMinutes(), 30);
});

test("a week: one tick per local midnight, on a day of 25 hours too", () => {
  process.env.TZ = "America/New_York";
  // Clocks go back on Sunday 1 November 2026 at 02:00 (EDT to EST).
  const from = new Date(2026, 9, 28, 15, 0).getTime() / 1000;
  const ticks = timeTicks(from, from + 7 * 86_400);
  assert.deepEqual(
    ticks.map((tick) => local(tick.seconds)),
    ["29 00:00", "30 00:00", "31 00:00", "1 00:00", "2 00:00", "3 00:00", "4 00:00"],
  );
  assert.ok(ticks.every((tick) => tick.midnight));
  // The day of the change is 25 hours long.
  assert.equal(ticks[4]!.seconds - ticks[3]!.seconds, 25 * 3_600);
});

test("a day across the change: every third local hour, whatever the clock did", () => {
  process.env.TZ = "America/New_York";
  // Clocks go forward on Sunday 8 March 2026 at 02:00 (EST to EDT): that day has no 02:00.
  const from = new Date(2026, 2, 7, 22, 0).getTime() / 1000;
  assert.deepEqual(
    timeTicks(from, from + 86_400).map((tick) => local(tick.seconds)),
    ["8 00:00", "8 03:00", "8 06:00", "8 09:00", "8 12:00", "8 15:00", "8 18:00", "8 21:00"],
  );
});
