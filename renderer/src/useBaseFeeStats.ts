import { useCallback, useEffect, useLayoutEffect, useRef, useSyncExternalStore } from "react";
import { statsRequestKey, type StatsRequest } from "./statsRequest.ts";
import { EMPTY_STATS_ENTRY, type StatsEntry, type StatsStore } from "./statsStore.ts";

/** How often a mounted reader checks whether its answer has grown older than it allows (the check itself is a lookup). */
const CHECK_EVERY_MS = 5_000;

/**
 * One baseFeeStats answer for the calling component, asked again whenever it is older than `maxAgeMs`. While
 * `request` is undefined or `enabled` is false (the service is not answering, or holds no history), nothing is asked
 * and whatever is held stays readable.
 */
export function useBaseFeeStats(store: StatsStore, chainId: number, request: StatsRequest | undefined, maxAgeMs: number, enabled: boolean): StatsEntry {
  const key = request === undefined ? undefined : statsRequestKey(chainId, request);
  // The newest request, for the timer below, which is set up again only when the key changes (a reader re-renders on
  // every block, with an equal but new request each time).
  const current = useRef(request);
  useLayoutEffect(() => {
    current.current = request;
  });
  const getSnapshot = useCallback(() => (key === undefined ? EMPTY_STATS_ENTRY : store.read(key)), [store, key]);
  const entry = useSyncExternalStore(store.subscribe, getSnapshot);
  useEffect(() => {
    if (key === undefined || !enabled) return;
    const ask = () => {
      if (current.current !== undefined) store.refresh(chainId, current.current, maxAgeMs);
    };
    ask();
    const timer = window.setInterval(ask, Math.min(CHECK_EVERY_MS, maxAgeMs));
    return () => window.clearInterval(timer);
  }, [store, chainId, key, maxAgeMs, enabled]);
  return entry;
}
