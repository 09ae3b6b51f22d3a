// The statistics window and the history's horizon in words: "24 h", "7 days", "500 blocks".
import { parseWindowSpec } from "../../../shared/core/history/duration.ts";

const DAY_S = 86_400;
const HOUR_S = 3_600;

/** A duration in seconds as a reader says it: "7 days", "24 h", "90 min", "45 s". */
export function durationWords(seconds: number): string {
  if (seconds % DAY_S === 0 && seconds >= 2 * DAY_S) return `${seconds / DAY_S} days`;
  if (seconds % HOUR_S === 0) return `${seconds / HOUR_S} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** A window as `GET /networks` gives it ("24h", "500 blocks") in words; anything else as it came. */
export function windowWords(window: string): string {
  const spec = parseWindowSpec(window);
  if (spec === undefined) return window;
  return spec.kind === "blocks" ? `${spec.blocks.toLocaleString("en-US")} blocks` : durationWords(spec.seconds);
}

const ONE_DECIMAL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** A measured span, rounded as a reader says it: "47 min", "3.2 h", "2.5 days". */
export function roughDurationWords(seconds: number): string {
  if (seconds < 2 * HOUR_S) return `${Math.max(1, Math.round(seconds / 60))} min`;
  if (seconds < 2 * DAY_S) return `${ONE_DECIMAL.format(Math.floor((seconds / HOUR_S) * 10) / 10)} h`;
  return `${ONE_DECIMAL.format(Math.floor((seconds / DAY_S) * 10) / 10)} days`;
}

/** The times of the oldest and newest blocks held (`GET /networks`' history), unix seconds; null while nothing is held. */
export interface HeldTimes {
  readonly oldestTime: number | null;
  readonly newestTime: number | null;
}

/**
 * The history an answer covers: from the oldest block held when it was asked for (StatsEntry.heldFromSeconds), not
 * the one held by now (older blocks may have arrived since, and the answer is asked again a little later), up to the
 * newest block.
 */
export function heldByAnswer(heldFromSeconds: number | undefined, history: HeldTimes): HeldTimes {
  return { oldestTime: heldFromSeconds ?? history.oldestTime, newestTime: history.newestTime };
}

/**
 * How much of the last `spanSeconds` (ending at the newest block) the history holds, in words ("7.2 h"), while it does
 * not reach that far back (a first start, backfilling; the demo's two days of a week); undefined once it does (a
 * block's spacing short of the span is the span: its oldest block lies a little inside it), or while nothing is held.
 */
export function heldOfSpan(spanSeconds: number, history: HeldTimes): string | undefined {
  if (history.oldestTime === null || history.newestTime === null) return undefined;
  const heldSeconds = history.newestTime - history.oldestTime;
  return heldSeconds < spanSeconds * 0.98 ? roughDurationWords(heldSeconds) : undefined;
}

/** "the last 24 h", or, while less is held, "the 7.2 h held of the last 24 h": a view's span as it is filled. */
export function lastSpanWords(spanSeconds: number, history: HeldTimes): string {
  const held = heldOfSpan(spanSeconds, history);
  return held === undefined ? `the last ${durationWords(spanSeconds)}` : `the ${held} held of the last ${durationWords(spanSeconds)}`;
}

/**
 * The median a chain's tile compares the current base fee with, named as the 50th percentile card names its window:
 * the same number over the same blocks (the statistics window; while the history held is shorter than a window of
 * time, what is held). Short for the tile ("24 h median", "7.2 h median", "500-block median") and in a sentence.
 */
export function statsMedianWords(statsWindow: string, history: HeldTimes): { short: string; long: string } {
  const spec = parseWindowSpec(statsWindow);
  const held = spec?.kind === "duration" ? heldOfSpan(spec.seconds, history) : undefined;
  if (held !== undefined) {
    return { short: `${held} median`, long: `the median (p50) of the ${held} held (the history does not reach ${windowWords(statsWindow)} back yet)` };
  }
  const name = windowWords(statsWindow);
  return { short: spec?.kind === "blocks" ? `${spec.blocks.toLocaleString("en-US")}-block median` : `${name} median`, long: `the median (p50) over ${name}` };
}

/**
 * The window the statistics are computed over now: the configured one ("24 h"), or, while the history held is still
 * shorter than a window of time (a first start, backfilling), what it is instead: every block held ("the 3.2 h held").
 */
export function statsWindowWords(statsWindow: string, history: HeldTimes): string {
  const spec = parseWindowSpec(statsWindow);
  const held = spec?.kind === "duration" ? heldOfSpan(spec.seconds, history) : undefined;
  return held === undefined ? windowWords(statsWindow) : `the ${held} held`;
}

/** The two statistics lines' names, with the window they are computed over ("24 h", or "the 3.2 h held"). */
export function statsLineNames(windowName: string): { p50: string; busy: string } {
  return { p50: `p50 over ${windowName}`, busy: `p90 over ${windowName} = busy threshold` };
}
