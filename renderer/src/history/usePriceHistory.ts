import { useEffect, useState } from "react";
import type { PriceHistory } from "../../../shared/wire/costs.ts";
import type { ChartCost } from "../costs/chartCost.ts";

/** New price points arrive at most once a minute (a feed round seen): asked again this often. */
const REFRESH_MS = 60_000;
const HOUR_S = 3_600;

export interface PriceHistoryEntry {
  readonly points: PriceHistory | undefined;
  readonly error: string | undefined;
}

/**
 * The price points held from `fromSeconds` (rounded down to the hour, so that a range moving with each block asks the
 * same question) up to now, asked at once and every minute while `cost` is set and `enabled`.
 */
export function usePriceHistory(cost: ChartCost | undefined, fromSeconds: number | undefined, enabled: boolean): PriceHistoryEntry {
  // With the fetcher it came from: another chain's or action's points are never shown while its own are on their way.
  const [entry, setEntry] = useState<PriceHistoryEntry & { readonly from?: ChartCost["fetchPrices"] }>({ points: undefined, error: undefined });
  const fetchPrices = cost?.fetchPrices;
  const from = fromSeconds === undefined ? undefined : Math.floor(fromSeconds / HOUR_S) * HOUR_S;
  useEffect(() => {
    if (fetchPrices === undefined || from === undefined || !enabled) return;
    const abort = new AbortController();
    const ask = () =>
      fetchPrices(from, abort.signal).then(
        (points) => setEntry({ points, error: undefined, from: fetchPrices }),
        (error: unknown) => {
          if (abort.signal.aborted) return;
          const message = error instanceof Error ? error.message : String(error);
          setEntry((current) => (current.from === fetchPrices ? { ...current, error: message } : { points: undefined, error: message, from: fetchPrices }));
        },
      );
    void ask();
    const timer = window.setInterval(() => void ask(), REFRESH_MS);
    return () => {
      abort.abort();
      window.clearInterval(timer);
    };
  }, [fetchPrices, from, enabled]);
  return fetchPrices === undefined || entry.from !== fetchPrices ? { points: undefined, error: undefined } : entry;
}
