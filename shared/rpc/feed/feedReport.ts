import type { BlockAnchor } from "../../core/history/blockAnchor.ts";
import type { BlockTips } from "../../core/fees/recentTips.ts";
import type { EndpointCallCount } from "../endpoints/endpointPool.ts";
import type { EndpointStatus } from "../../wire/networkStatus.ts";

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
 * Consecutive blocks as an endpoint's believed answer gave them, oldest first: base fees, and where the answer had
 * them, gas-used ratios and blob base fees (one per block).
 */
export interface FeedBlocks {
  readonly firstBlock: bigint;
  readonly baseFeesWei: readonly bigint[];
  readonly gasUsedRatios?: readonly number[];
  readonly blobBaseFeesWei?: readonly bigint[];
  /** Blob gas used over the block's blob gas maximum, 0..1 (only with blob base fees). */
  readonly blobGasUsedRatios?: readonly number[];
}

/**
 * What a chain feed read since its previous report, and where it stands, handed to its listener as one immutable
 * value on each change. A feed reports blocks, not statistics: the chain's record (service/chainRecord.ts) writes
 * them into the history and computes the statistics, once. Readers take each report once, in order. What did not
 * change since the previous report is the same object in both (`endpoints`, `recentTips`); everything is frozen.
 */
export interface FeedReport {
  readonly chainId: number;
  /** The blocks read since the previous report that are new or carry another fee than before (re-mined), in order. */
  readonly blocks: readonly FeedBlocks[];
  /** The newest block the chain is confirmed to have (a believed answer's); undefined before the first. */
  readonly newestBlock: bigint | undefined;
  /** The base fee of the block after `newestBlock`, as the endpoint reported it; undefined when it gave none. */
  readonly nextBaseFeeWei: bigint | undefined;
  /** The blob base fee of the block after `newestBlock`, as the endpoint reported it; undefined on a chain without blobs. */
  readonly nextBlobBaseFeeWei: bigint | undefined;
  /** Tips of the newest blocks whose rewards were read (up to RECENT_BLOCKS block numbers), oldest first. */
  readonly recentTips: readonly BlockTips[];
  /**
   * Epoch ms when the newest new data arrived: new or re-mined blocks from a believed answer. An answer that only
   * repeats what is held, or comes from an endpoint lagging behind, does not move it: the data's age is the age of the
   * newest new data.
   */
  readonly newDataAt: number | undefined;
  readonly phase: FeedPhase;
  /** Every endpoint of the chain, in the configured order (URLs redacted). */
  readonly endpoints: readonly EndpointStatus[];
  /** What changed since the feed's previous report: blocks (or the next base fee, or tips), and health. */
  readonly changed: { readonly blocks: boolean; readonly health: boolean };
  /**
   * Block headers' exact timestamps the feed saw since its previous report, in the order seen (usually one: the newest
   * block of a poll, or a new head), frozen; [] when none. Each was believed: not more than MAX_HEADER_AHEAD_SECONDS
   * ahead of the local clock, and not decreasing as block numbers grow among those the feed holds (rpc/feed/blockAnchors.ts).
   */
  readonly anchors: readonly BlockAnchor[];
  /** Each endpoint's JSON-RPC calls and failures so far, as of this report (not a change: counts move every call). */
  readonly callCounts: readonly EndpointCallCount[];
  /**
   * How the chain's endpoints disagree where no majority settles it (rpc/endpoints: the cross-check, a backfill page's
   * seam); none (or absent) while they agree. A change of it is a change of health.
   */
  readonly disputes?: readonly string[];
}
