// The statistics window and the history's horizon in words: "24 h", "7 days", "500 blocks".
import { parseWindowSpec } from "../../shared/core/history/duration.ts";

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

/**
 * The window the statistics are computed over now: the configured one ("24 h"), or, while the history held is still
 * shorter than a window of time (a first start, backfilling), what it is instead: every block held ("the 3.2 h held").
 */
export function statsWindowWords(statsWindow: string, history: { readonly oldestTime: number | null; readonly newestTime: number | null }): string {
  const spec = parseWindowSpec(statsWindow);
  if (spec?.kind === "duration" && history.oldestTime !== null && history.newestTime !== null) {
    const heldSeconds = history.newestTime - history.oldestTime;
    // A block's spacing short of the window is the window (its oldest block is a little inside it).
    if (heldSeconds < spec.seconds * 0.98) return `the ${roughDurationWords(heldSeconds)} held`;
  }
  return windowWords(statsWindow);
}

/** The two statistics lines' names, with the window they are computed over ("24 h", or "the 3.2 h held"). */
export function statsLineNames(windowName: string): { p50: string; busy: string } {
  return { p50: `p50 over ${windowName}`, busy: `p90 over ${windowName} = busy threshold` };
}
