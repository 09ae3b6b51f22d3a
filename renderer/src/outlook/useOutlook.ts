import { useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore } from "react";
import type { OutlookQuery } from "../live/outlookRequest.ts";
import { type OutlookEntry, outlookKey, type OutlookStore } from "./outlookStore.ts";

/**
 * The chain's answers to `queries`, for the calling component: asked at once and again with each new block, at most
 * every `everyMs` (a block that came too soon is asked for once that time has passed). While `enabled` is false (the
 * service is not answering, or the chain has no block), nothing is asked and the last answers stay readable.
 */
export function useOutlook(
  store: OutlookStore,
  chainId: number,
  block: string | null,
  queries: readonly OutlookQuery[],
  everyMs: number,
  enabled: boolean,
): OutlookEntry[] {
  const version = useSyncExternalStore(store.subscribe, store.version);
  const key = queries.map((query) => outlookKey(chainId, query)).join(" ");
  // The newest block and questions, for the timer below, which is set up again only when the chain or the pace changes.
  const current = useRef({ block, queries });
  useLayoutEffect(() => {
    current.current = { block, queries };
  });
  useEffect(() => {
    if (enabled && block !== null) store.refresh(chainId, block, current.current.queries, everyMs);
  }, [store, chainId, block, key, everyMs, enabled]);
  useEffect(() => {
    if (!enabled) return;
    const timer = window.setInterval(() => {
      const { block: newest, queries: asked } = current.current;
      if (newest !== null) store.refresh(chainId, newest, asked, everyMs);
    }, everyMs);
    return () => window.clearInterval(timer);
  }, [store, chainId, everyMs, enabled]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `version` says when an entry changed; `key` stands for `queries`.
  return useMemo(() => queries.map((query) => store.read(chainId, query)), [store, chainId, key, version]);
}
