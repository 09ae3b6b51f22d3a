// The cheapest hours' summaries, remembered per chain: a chain shown again (a switch of chain and back) draws the
// summaries it was last answered without asking again, unless what it asks with has changed (a new hour, the
// backfill reaching further back) or a periodic refresh asks for the newest.
import type { HourlyStats } from "../../../shared/wire/hourlyStats.ts";

/** Asks a chain's summaries: `key` says what they are asked for; `reuse` lets a remembered answer of that key stand. */
export type HourlyStatsAsk = (chainId: number, key: string, signal: AbortSignal, reuse: boolean) => Promise<HourlyStats>;

export function rememberHourlyStats(fetch: (chainId: number, signal: AbortSignal) => Promise<HourlyStats>): HourlyStatsAsk {
  const held = new Map<number, { readonly key: string; readonly rows: HourlyStats }>();
  return async (chainId, key, signal, reuse) => {
    const kept = held.get(chainId);
    if (reuse && kept?.key === key) return kept.rows;
    const rows = await fetch(chainId, signal);
    held.set(chainId, { key, rows });
    return rows;
  };
}
