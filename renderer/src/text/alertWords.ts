// An alert rule's condition in words, the same on the settings page, in the dashboard's list and on the chart:
// "below 8 Gwei", "above the 7 d p95", "below the p20 of the last 7,200 blocks".
import { parseWindowSpec } from "../../../shared/core/history/duration.ts";

const DAY_S = 86_400;
const HOUR_S = 3_600;

/** What a condition is made of: a rule of the settings file or of `GET /alerts` (whose absent fields are null). */
export interface ConditionParts {
  readonly when: "below" | "above";
  readonly gwei?: string | number | null;
  readonly percentile?: number | null;
  /** The percentile's window as written ("7d", "7200 blocks"); absent: the chain's statistics window. */
  readonly window?: string | null;
}

/** A window in a few characters: "24 h", "7 d", "90 min", "7,200 blocks"; anything unreadable as it came. */
export function compactWindowWords(window: string): string {
  const spec = parseWindowSpec(window);
  if (spec === undefined) return window;
  if (spec.kind === "blocks") return `${spec.blocks.toLocaleString("en-US")} blocks`;
  const { seconds } = spec;
  // A day is "24 h", as the rest of the page says it; two or more in days.
  if (seconds % DAY_S === 0 && seconds >= 2 * DAY_S) return `${seconds / DAY_S} d`;
  if (seconds % HOUR_S === 0) return `${seconds / HOUR_S} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/**
 * The condition as a person says it. `chainWindow` is the chain's statistics window, the window of a percentile rule
 * that names none.
 */
export function conditionWords(rule: ConditionParts, chainWindow: string): string {
  if (rule.percentile === undefined || rule.percentile === null) return `${rule.when} ${String(rule.gwei ?? "?")} Gwei`;
  const window = rule.window ?? chainWindow;
  const spec = parseWindowSpec(window);
  const percentile = `p${rule.percentile}`;
  if (spec?.kind === "blocks") return `${rule.when} the ${percentile} of the last ${compactWindowWords(window)}`;
  return `${rule.when} the ${compactWindowWords(window)} ${percentile}`;
}

/** How long the condition must hold: "1 block", "3 blocks in a row". */
export function forBlocksWords(forBlocks: number): string {
  return forBlocks === 1 ? "1 block" : `${forBlocks} blocks in a row`;
}

/** "no cooldown", "15 min", "2 h", "1 h 30 min". */
export function cooldownWords(cooldownMinutes: number): string {
  if (cooldownMinutes === 0) return "no cooldown";
  if (cooldownMinutes < 60 || !Number.isInteger(cooldownMinutes)) return `${cooldownMinutes} min`;
  const hours = Math.floor(cooldownMinutes / 60);
  const minutes = cooldownMinutes % 60;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}
