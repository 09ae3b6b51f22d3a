import type { BlockAnchor } from "../core/history/blockAnchor.ts";
import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import type { EndpointCallCount } from "./endpointPool.ts";
import type { EndpointStatus } from "../wire/networkStatus.ts";

/**
 * Where a feed stands with its chain:
 * - syncing: no data yet, and no endpoint has been found failing everywhere;
 * - unreachable: no data yet, and every endpoint was tried and fails (or serves another chain);
 * - ok: following the chain;
 * - degraded: data arrived once, but every endpoint is failing or set aside as suspect now: the data held is served
 *   with its age;
 * - no-base-fee: the chain has no EIP-1559 base fee, so it is not followed.
 */
export type FeedPhase = "syncing" | "unreachable" | "ok" | "degraded" | "no-base-fee";

/**
 * Everything a chain feed knows at one moment, handed to its listener as one immutable value on each change. Readers
 * never ask the feed anything else: what is not here, they do not need. Before its first change a feed's report is
 * syncing, with no data and its endpoints as configured. What did not change since the previous report is the same
 * object in both (`snapshot`, `endpoints`), so readers may compare by identity; everything is frozen.
 */
export interface FeedReport {
  readonly chainId: number;
  /** The statistics of the blocks held; undefined until the first blocks arrive. Replaced, never mutated. */
  readonly snapshot: FeeSnapshot | undefined;
  /**
   * Epoch ms when the newest new data arrived: new or re-mined blocks from a believed answer. An answer that only
   * repeats what is held, or comes from an endpoint lagging behind, does not move it: the data's age is the age of the
   * newest new data.
   */
  readonly confirmedAt: number | undefined;
  readonly phase: FeedPhase;
  /** Every endpoint of the chain, in the configured order (URLs redacted). */
  readonly endpoints: readonly EndpointStatus[];
  /** What changed since the feed's previous report; both false when only `confirmedAt` moved. */
  readonly changed: { readonly blocks: boolean; readonly health: boolean };
  /**
   * Block headers' exact timestamps the feed saw since its previous report, in the order seen (usually one: the newest
   * block of a poll, or a new head), frozen; [] when none. Each was believed: not more than 15 minutes ahead of the
   * local clock, and not decreasing as block numbers grow among those the feed holds (rpc/blockAnchors.ts).
   */
  readonly anchors?: readonly BlockAnchor[];
  /** Each endpoint's JSON-RPC calls and failures so far, as of this report (not a change: counts move every call). */
  readonly callCounts?: readonly EndpointCallCount[];
}
