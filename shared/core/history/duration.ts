/** A statistics window or a history horizon as the contract writes it: a duration ("1h", "24h", "7d") or "500 blocks". */
export type WindowSpec =
  { readonly kind: "duration"; readonly seconds: number; readonly text: string } | { readonly kind: "blocks"; readonly blocks: number; readonly text: string };

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 };

/** The longest duration accepted anywhere (a window, a horizon): a year. */
export const MAX_DURATION_SECONDS = 366 * 86_400;

/**
 * Parses a duration ("90s", "15m", "1h", "24h", "7d", "1w"): a positive whole number and one unit, at most a year.
 * Returns the seconds, or undefined when `text` is not one.
 */
export function parseDurationSeconds(text: string): number | undefined {
  const match = /^([1-9][0-9]{0,8})(s|m|h|d|w)$/.exec(text.trim());
  if (!match) return undefined;
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2]!]!;
  return seconds <= MAX_DURATION_SECONDS ? seconds : undefined;
}

/** Parses a window: a duration, or "N blocks" (N from 1 to 10,000,000). Undefined when `text` is neither. */
export function parseWindowSpec(text: string): WindowSpec | undefined {
  const trimmed = text.trim();
  const blocks = /^([1-9][0-9]{0,7}) blocks?$/.exec(trimmed);
  if (blocks) {
    const count = Number(blocks[1]);
    return count <= 10_000_000 ? { kind: "blocks", blocks: count, text: `${count} blocks` } : undefined;
  }
  const seconds = parseDurationSeconds(trimmed);
  return seconds === undefined ? undefined : { kind: "duration", seconds, text: trimmed };
}
