// Every chain as the page knows it from the one event stream: its status and its blocks. Pure: each event gives a
// new value, and a chain the event does not touch keeps its very object (so that React skips what did not change).
import { applyBlocks, type FeePoint } from "./chainData.ts";
import type { NetworkEvent } from "../../../shared/wire/networkEvent.ts";
import type { NetworkStatus } from "../../../shared/wire/networkStatus.ts";

export interface ChainLive {
  readonly status: NetworkStatus;
  /** The newest blocks, oldest first. */
  readonly points: readonly FeePoint[];
  /** performance.now() when the status arrived, to age `status.dataAgeMs` on the page. */
  readonly receivedAt: number;
}

export interface DashboardFeed {
  /** The chain ids the service follows, in its order, as of its last answer to `GET /networks`. */
  readonly configured: readonly number[];
  /** The chains the stream has reported, in the service's order. */
  readonly chains: readonly ChainLive[];
}

export const EMPTY_FEED: DashboardFeed = { configured: [], chains: [] };

/** The feed after one event: the chain's status replaced, its blocks patched; a chain not seen before is added last. */
export function applyNetworkEvent(feed: DashboardFeed, event: NetworkEvent, receivedAt: number): DashboardFeed {
  const chainId = event.status.chainId;
  const index = feed.chains.findIndex((chain) => chain.status.chainId === chainId);
  const previous = index === -1 ? [] : feed.chains[index]!.points;
  // A status without data (a chain still syncing after a restart of the service) holds no blocks, whatever came before.
  const points = event.status.newestBlock === null ? [] : event.blocks === null ? previous : applyBlocks(previous, event.blocks);
  const next: ChainLive = { status: event.status, points, receivedAt };
  const chains = index === -1 ? [...feed.chains, next] : feed.chains.with(index, next);
  return { configured: feed.configured, chains };
}

/**
 * The feed after the service listed the chains it follows (`chainIds`, in its order): a chain it no longer follows
 * goes, the others take its order; one not yet seen on the stream appears with its first event.
 */
export function keepChains(feed: DashboardFeed, chainIds: readonly number[]): DashboardFeed {
  const byId = new Map(feed.chains.map((chain) => [chain.status.chainId, chain]));
  const chains = chainIds.flatMap((chainId) => {
    const chain = byId.get(chainId);
    return chain === undefined ? [] : [chain];
  });
  const sameChains = chains.length === feed.chains.length && chains.every((chain, index) => chain === feed.chains[index]);
  const sameIds = chainIds.length === feed.configured.length && chainIds.every((chainId, index) => chainId === feed.configured[index]);
  return sameChains && sameIds ? feed : { configured: chainIds, chains: sameChains ? feed.chains : chains };
}
