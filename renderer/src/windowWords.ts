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

/** The two statistics lines' names, with the window they are computed over. */
export function statsLineNames(statsWindow: string): { p50: string; busy: string } {
  const over = windowWords(statsWindow);
  return { p50: `p50 over ${over}`, busy: `p90 over ${over} = busy threshold` };
}
