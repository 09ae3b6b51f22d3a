import type { BlocksToWrite } from "./historyStoreTypes.ts";

// The values historyStoreWriterProcess.ts writes, so that its test knows exactly what each writer wrote.

/** Writer 1 gives gas-used ratios and no blob fees; writer 2 the other way round; writer 0 gives fees only. */
export const RATIO_WRITER = 1;
export const BLOB_WRITER = 2;

/** A base fee that differs per block and per writer. */
export const writerFeeOf = (variant: number, block: number): bigint => BigInt(block) * 1_000_003n + BigInt(variant);
export const writerRatioOf = (block: number): number => (block % 10_001) / 10_000;
export const writerBlobFeeOf = (block: number): bigint => BigInt(block % 1_000);
/** Every writer anchors both ends of each page, at 12 s a block. */
export const writerTimestampOf = (block: number): number => 1_600_000_000 + 12 * block;

/** What writer `variant` writes for blocks `from` to `to`. */
export function writerBlocks(variant: number, from: number, to: number): BlocksToWrite {
  const count = to - from + 1;
  const blocks = Array.from({ length: count }, (_, i) => from + i);
  return {
    baseFeesWei: blocks.map((block) => writerFeeOf(variant, block)),
    anchors: [...new Set([from, to])].map((block) => ({ block: BigInt(block), timestamp: writerTimestampOf(block) })),
    gasUsedRatios: variant === RATIO_WRITER ? blocks.map(writerRatioOf) : undefined,
    blobBaseFeesWei: variant === BLOB_WRITER ? blocks.map(writerBlobFeeOf) : undefined,
  };
}
