import { useCallback, useEffect, useSyncExternalStore } from "react";
import type { CostsEntry, CostsStore } from "./costsStore.ts";

/**
 * The chain's costs for the calling component, asked at once and again with each new block, at most every `everyMs`
 * (CostsStore.refresh). While `enabled` is false (the service is not answering, or the chain has no data), nothing is
 * asked and the last answer stays readable.
 */
export function useCosts(store: CostsStore, chainId: number, newestBlock: string | null, everyMs: number, enabled: boolean): CostsEntry {
  const getSnapshot = useCallback(() => store.read(chainId), [store, chainId]);
  const entry = useSyncExternalStore(store.subscribe, getSnapshot);
  useEffect(() => {
    if (enabled) store.refresh(chainId, newestBlock, everyMs);
  }, [store, chainId, newestBlock, everyMs, enabled]);
  return entry;
}
