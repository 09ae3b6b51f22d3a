import { useEffect, useState } from "react";
import type { HourlyStats } from "../../../shared/wire/hourlyStats.ts";

/** A closed hour adds one summary a chain: asked again every 5 minutes, and whenever `askAgainKey` changes. */
const REFRESH_MS = 300_000;

export interface HourlyStatsEntry {
  readonly rows: HourlyStats | undefined;
  readonly error: string | undefined;
}

/**
 * The chain's hourly summaries (GET /networks/{chainId}/hourlyStats, every hour held, oldest first), asked at once,
 * every 5 minutes, and again when `askAgainKey` changes (a new hour of blocks, the backfill reaching further back), while
 * `enabled`. What was answered stays readable meanwhile; another chain's rows are never shown for this one.
 */
export function useHourlyStats(
  fetchRows: ((key: string, signal: AbortSignal, reuse: boolean) => Promise<HourlyStats>) | undefined,
  askAgainKey: string,
  enabled: boolean,
): HourlyStatsEntry {
  const [entry, setEntry] = useState<HourlyStatsEntry & { readonly from?: typeof fetchRows }>({ rows: undefined, error: undefined });
  useEffect(() => {
    if (fetchRows === undefined || !enabled) return;
    const abort = new AbortController();
    // The first ask may take what was answered for the same key (the chain shown again); the refresh asks anew.
    const ask = (reuse: boolean) =>
      fetchRows(askAgainKey, abort.signal, reuse).then(
        (rows) => setEntry({ rows, error: undefined, from: fetchRows }),
        (error: unknown) => {
          if (abort.signal.aborted) return;
          const message = error instanceof Error ? error.message : String(error);
          setEntry((current) => (current.from === fetchRows ? { ...current, error: message } : { rows: undefined, error: message, from: fetchRows }));
        },
      );
    void ask(true);
    const timer = window.setInterval(() => void ask(false), REFRESH_MS);
    return () => {
      abort.abort();
      window.clearInterval(timer);
    };
  }, [fetchRows, askAgainKey, enabled]);
  return fetchRows === undefined || entry.from !== fetchRows ? { rows: undefined, error: undefined } : entry;
}
