import { useCallback, useEffect, useLayoutEffect, useRef, useSyncExternalStore } from "react";
import type { CostsEntry, CostsStore } from "./costsStore.ts";

/**
 * The chain's costs for the calling component, asked at once and again as its state changes (costsStateKey: a new
 * block, a new or stale price), at most every `everyMs`: a change that came too soon is asked for once that time has
 * passed. While `enabled` is false (the service is not answering, or the chain has no data), nothing is asked and the
 * last answer stays readable.
 */
export function useCosts(store: CostsStore, chainId: number, state: string | null, everyMs: number, enabled: boolean): CostsEntry {
  const getSnapshot = useCallback(() => store.read(chainId), [store, chainId]);
  const entry = useSyncExternalStore(store.subscribe, getSnapshot);
  // The newest state, for the timer below, which is set up again only when the chain or the pace changes.
  const current = useRef(state);
  useLayoutEffect(() => {
    current.current = state;
  });
  useEffect(() => {
    if (enabled) store.refresh(chainId, state, everyMs);
  }, [store, chainId, state, everyMs, enabled]);
  useEffect(() => {
    if (!enabled) return;
    const timer = window.setInterval(() => store.refresh(chainId, current.current, everyMs), everyMs);
    return () => window.clearInterval(timer);
  }, [store, chainId, everyMs, enabled]);
  return entry;
}
