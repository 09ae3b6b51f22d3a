/**
 * A stretch of consecutive held blocks, oldest first: block `firstBlock + i` has `timestamps[i]` and `baseFeesWei[i]`.
 * The arrays are views into the history's own storage: read them during the call or iteration step that handed them
 * out, and copy what must outlive it (new blocks and re-mined blocks overwrite storage in place).
 */
export interface BlockRun {
  readonly firstBlock: bigint;
  /** Unix seconds: exact where the service saw the block's header (an anchor), interpolated between anchors. */
  readonly timestamps: Float64Array;
  readonly baseFeesWei: BigUint64Array;
  /** Blob base fees (UNKNOWN_BLOB_FEE, -1, where not known); absent when no block of the run's chunk has one. */
  readonly blobBaseFeesWei?: BigInt64Array;
  /** Gas-used ratios in parts of RATIO_PARTS (UNKNOWN_RATIO where not known); absent when no block of the run's chunk has one. */
  readonly gasUsedParts?: Uint16Array;
  /** Blob gas used ratios in parts of RATIO_PARTS (UNKNOWN_RATIO where not known); absent as blobBaseFeesWei is. */
  readonly blobGasUsedParts?: Uint16Array;
}
