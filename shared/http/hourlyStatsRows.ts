import { toGweiString } from "../core/fees/gwei.ts";
import type { HourlySummary } from "../core/outlook/hourlySummary.ts";
import type { HourlyStatsRow } from "../wire/hourlyStats.ts";
import { MAX_UNIX_SECONDS } from "./statsQuery.ts";

// What /hourlyStats and /hourlyStats.csv answer: the chain's hourly summaries (oldest first, as the publication holds
// them) whose hour starts within [from, to], as JSON rows or CSV lines. The one place both answers select and format.

/** The summaries whose start lies in [fromSeconds, toSeconds] (each end optional), oldest first. */
export function summariesBetween(
  summaries: readonly HourlySummary[],
  fromSeconds: number | undefined,
  toSeconds: number | undefined,
): readonly HourlySummary[] {
  const from = fromSeconds ?? 0;
  const to = toSeconds ?? MAX_UNIX_SECONDS;
  if (from === 0 && to === MAX_UNIX_SECONDS) return summaries;
  return summaries.slice(firstAtOrAfter(summaries, from), firstAtOrAfter(summaries, to + 1));
}

/** The index of the first summary starting at or after `seconds` (the summaries are sorted by start). */
function firstAtOrAfter(summaries: readonly HourlySummary[], seconds: number): number {
  let low = 0;
  let high = summaries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (summaries[middle]!.start < seconds) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function hourlyStatsRowOf(summary: HourlySummary): HourlyStatsRow {
  return {
    start: summary.start,
    blocks: summary.blocks,
    sampled: summary.sampled,
    min: toGweiString(summary.min),
    p10: toGweiString(summary.p10),
    p50: toGweiString(summary.p50),
    p90: toGweiString(summary.p90),
    max: toGweiString(summary.max),
    last: toGweiString(summary.last),
  };
}

/** A summary's CSV line (HOURLY_STATS_CSV_HEADER's columns), with its newline. */
export function hourlyStatsCsvLineOf(summary: HourlySummary): string {
  const row = hourlyStatsRowOf(summary);
  return `${row.start},${row.blocks},${row.sampled},${row.min},${row.p10},${row.p50},${row.p90},${row.max},${row.last}\n`;
}
