// Where a time axis puts its ticks: at round moments of the reader's own clock (every 10 minutes, every 3 hours, each
// midnight), so that a reader can take a time off the chart. Local time, daylight-saving changes included.

const MINUTE_S = 60;
const HOUR_S = 3_600;
const DAY_S = 86_400;

/** The steps a tick may take, shortest first: each divides the next longer hour or day evenly. */
const STEPS_S = [
  MINUTE_S,
  2 * MINUTE_S,
  5 * MINUTE_S,
  10 * MINUTE_S,
  15 * MINUTE_S,
  30 * MINUTE_S,
  HOUR_S,
  2 * HOUR_S,
  3 * HOUR_S,
  6 * HOUR_S,
  12 * HOUR_S,
  DAY_S,
];

export interface TimeTick {
  /** Unix seconds. */
  readonly seconds: number;
  /** A local midnight: labelled with its day. */
  readonly midnight: boolean;
}

/** The shortest step that puts at most `maxTicks` ticks in a span of `spanSeconds`. */
export function timeTickStep(spanSeconds: number, maxTicks: number): number {
  return STEPS_S.find((step) => spanSeconds / step <= maxTicks) ?? DAY_S * Math.ceil(spanSeconds / DAY_S / maxTicks);
}

/**
 * Ticks from `fromSeconds` to `toSeconds` (both included) at most `maxTicks` of them, at local moments that are a
 * whole number of steps after local midnight: with a 3-hour step, 00:00, 03:00, 06:00 … of the reader's clock, on
 * a day of 23 or 25 hours too. A step of days puts a tick at each such local midnight.
 */
export function timeTicks(fromSeconds: number, toSeconds: number, maxTicks = 8): TimeTick[] {
  const step = timeTickStep(Math.max(1, toSeconds - fromSeconds), maxTicks);
  const ticks: TimeTick[] = [];
  if (step >= DAY_S) {
    const days = step / DAY_S;
    const day = new Date(fromSeconds * 1000);
    day.setHours(0, 0, 0, 0);
    // Days counted from a fixed local date, so that the same days carry ticks whatever the span's start.
    for (; day.getTime() / 1000 <= toSeconds; day.setDate(day.getDate() + 1)) {
      const seconds = day.getTime() / 1000;
      if (seconds >= fromSeconds && Math.round(daysSinceEpochLocal(day)) % days === 0) ticks.push({ seconds, midnight: true });
    }
    return ticks;
  }
  // Walk the local clock minute by minute-step: every moment whose minutes since local midnight are a multiple of the step.
  const stepMinutes = step / MINUTE_S;
  const probeMinutes = Math.min(stepMinutes, 60);
  const moment = new Date(fromSeconds * 1000);
  moment.setSeconds(0, 0);
  moment.setMinutes(Math.floor(moment.getMinutes() / probeMinutes) * probeMinutes);
  for (; moment.getTime() / 1000 <= toSeconds; moment.setTime(moment.getTime() + probeMinutes * MINUTE_S * 1000)) {
    const seconds = moment.getTime() / 1000;
    const minutesOfDay = moment.getHours() * 60 + moment.getMinutes();
    if (seconds >= fromSeconds && minutesOfDay % stepMinutes === 0) ticks.push({ seconds, midnight: minutesOfDay === 0 });
  }
  return ticks;
}

/** Whole local days since 1 Jan 1970 of a local midnight (DST-proof: counted on the calendar, not in seconds). */
function daysSinceEpochLocal(midnight: Date): number {
  return Date.UTC(midnight.getFullYear(), midnight.getMonth(), midnight.getDate()) / (DAY_S * 1000);
}

const CLOCK = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });
const WEEKDAY = new Intl.DateTimeFormat(undefined, { weekday: "short" });

/** A tick's label: the day at a midnight ("Tue 4"), else the time ("14:30", or "2:30 PM" where clocks say so). */
export function timeTickLabel(tick: TimeTick): string {
  const date = new Date(tick.seconds * 1000);
  return tick.midnight ? `${WEEKDAY.format(date)} ${date.getDate()}` : CLOCK.format(date);
}
