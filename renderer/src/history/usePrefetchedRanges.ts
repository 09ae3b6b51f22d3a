import { useEffect } from "react";
import { CHART_RANGES } from "./chartRange.ts";
import type { StatsStore } from "./statsStore.ts";

/** Long enough for the page's first drawing to be done: the prefetch never delays what the reader sees first. */
const PREFETCH_AFTER_MS = 1_500;

/**
 * Asks the service, once the page has settled, for each time range of the chart, so that the first switch to a range
 * draws at once from what is held (later switches ask again only when the held answer is older than its range allows).
 */
export function usePrefetchedRanges(store: StatsStore, chainId: number, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const timer = window.setTimeout(() => {
      for (const range of CHART_RANGES) {
        if (range.kind === "time") store.refresh(chainId, { kind: "window", window: range.window, buckets: range.buckets }, range.refreshMs);
      }
    }, PREFETCH_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [store, chainId, enabled]);
}
