import { useCallback, useEffect, useLayoutEffect, useRef, useSyncExternalStore } from "react";
import { statsRequestKey, type StatsRequest } from "../live/statsRequest.ts";
import { EMPTY_STATS_ENTRY, type StatsEntry, type StatsStore } from "./statsStore.ts";

/** How often a mounted reader checks whether its answer has grown older than it allows (the check itself is a lookup). */
const CHECK_EVERY_MS = 5_000;

/** A reader that follows the chain: its answer is asked again as new blocks arrive, at most every `everyMs` (StatsStore.refresh). */
export interface FollowChain {
  readonly newestBlock: string | null;
  readonly everyMs: number;
}

/**
 * One baseFeeStats answer for the calling component, asked again whenever it is older than `maxAgeMs`, and, when it
 * `follow`s the chain, as new blocks arrive. While `request` is undefined or `enabled` is false (the service is not
 * answering, or holds no history), nothing is asked and whatever is held stays readable.
 */
export function useBaseFeeStats(
  store: StatsStore,
  chainId: number,
  request: StatsRequest | undefined,
  maxAgeMs: number,
  enabled: boolean,
  follow?: FollowChain,
): StatsEntry {
  const key = request === undefined ? undefined : statsRequestKey(chainId, request);
  // The newest request, for the timer below, which is set up again only when the key changes (a reader re-renders on
  // every block, with an equal but new request each time).
  const current = useRef(request);
  const following = useRef(follow);
  useLayoutEffect(() => {
    current.current = request;
    following.current = follow;
  });
  const getSnapshot = useCallback(() => (key === undefined ? EMPTY_STATS_ENTRY : store.read(key)), [store, key]);
  const entry = useSyncExternalStore(store.subscribe, getSnapshot);
  useEffect(() => {
    if (key === undefined || !enabled) return;
    const timer = window.setInterval(() => askNow(store, chainId, current.current, maxAgeMs, following.current), Math.min(CHECK_EVERY_MS, maxAgeMs));
    return () => window.clearInterval(timer);
  }, [store, chainId, key, maxAgeMs, enabled]);
  // At once, and again with each new block of a chain it follows.
  const newestBlock = follow?.newestBlock;
  useEffect(() => {
    if (key !== undefined && enabled) askNow(store, chainId, current.current, maxAgeMs, following.current);
  }, [store, chainId, key, maxAgeMs, enabled, newestBlock]);
  return entry;
}

function askNow(store: StatsStore, chainId: number, request: StatsRequest | undefined, maxAgeMs: number, follow: FollowChain | undefined): void {
  if (request === undefined) return;
  store.refresh(chainId, request, maxAgeMs, follow?.newestBlock == null ? undefined : { newestBlock: follow.newestBlock, everyMs: follow.everyMs });
}
