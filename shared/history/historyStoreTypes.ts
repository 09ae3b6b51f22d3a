/** What goes into and comes out of the history store (historyStore.ts). */

import type { BlockAnchor } from "../core/history/blockAnchor.ts";

/** The store takes anchors' timestamps as whole numbers from 0 to 2^32 - 1. */
export type { BlockAnchor };

/** Consecutive blocks to store, the first of them given beside. Every array has one element per block. */
export interface BlocksToWrite {
  /** Wei, whole numbers from 0 to 2^63 - 1 (the feed refuses larger ones). */
  readonly baseFeesWei: readonly bigint[] | BigUint64Array;
  /** The blocks among these whose timestamps are exact, in any order, each block at most once. */
  readonly anchors?: readonly BlockAnchor[];
  /** Gas used over gas limit, as eth_feeHistory gives it (0 to 1; up to 6.5534 is kept), to 1/10,000. */
  readonly gasUsedRatios?: ArrayLike<number>;
  /** Wei, 0 to 2^63 - 1, where the chain has blobs. */
  readonly blobBaseFeesWei?: readonly bigint[] | BigUint64Array;
}

/**
 * A stretch of consecutive held blocks, oldest first: block `firstBlock + i` has `baseFeesWei[i]`. The arrays are the
 * caller's to keep (each run gets its own).
 */
export interface StoredRun {
  readonly firstBlock: bigint;
  readonly baseFeesWei: BigUint64Array;
  /** The run's blocks whose timestamps are exact, ascending; the others are to be interpolated between them. */
  readonly anchors: readonly BlockAnchor[];
  /** NaN where not known. */
  readonly gasUsedRatios: Float64Array;
  /** -1n where not known (UNKNOWN_BLOB_BASE_FEE). */
  readonly blobBaseFeesWei: BigInt64Array;
}

/** Blocks `fromBlock` to `toBlock` (both included) are all held. */
export interface HeldRange {
  readonly fromBlock: bigint;
  readonly toBlock: bigint;
}
