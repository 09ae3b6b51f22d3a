import type { BlocksToWrite } from "./historyStoreTypes.ts";
import { HistoryStoreInputError } from "./historyStoreErrors.ts";
import { GAS_USED_PARTS, MAX_GAS_USED_RATIO } from "./storeChunkSlots.ts";

/** Block numbers are below 2^53 (the feed refuses larger ones): every block number is then exact as a JS number. */
export const MAX_BLOCK = 2 ** 53 - 1;
/** Fees are below 2^63 wei: SQLite's INTEGER and the stored format hold them exactly. */
export const MAX_FEE_WEI = 2n ** 63n - 1n;
/** Timestamps are unix seconds below 2^32 (the year 2106). */
export const MAX_TIMESTAMP = 2 ** 32 - 1;
/** The most blocks one write takes: 256 pages of 1,024 (one transaction, held in memory while it runs). */
export const MAX_WRITE_BLOCKS = 262_144;

/** A write's blocks, checked, in the shapes the store copies from. */
export interface CheckedWrite {
  readonly firstBlock: number;
  readonly count: number;
  readonly baseFeesWei: readonly bigint[] | BigUint64Array;
  /** Per block: its exact timestamp, or NaN when it is no anchor. Undefined when the write has no anchor. */
  readonly anchorTimestamps: Float64Array | undefined;
  /** Per block: parts per 10,000. Undefined when the write gives no ratios. */
  readonly gasUsedParts: Uint16Array | undefined;
  readonly blobBaseFeesWei: readonly bigint[] | BigUint64Array | undefined;
}

/** Checks a chain id: a positive whole number (it names the chain's tables). */
export function checkChainId(file: string, chainId: number): void {
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new HistoryStoreInputError(file, `chain id ${String(chainId)} is not a positive whole number`);
}

/** Checks a block number given as a bound (0 to 2^53 - 1) and returns it as a number. */
export function checkBlock(file: string, block: bigint, what: string): number {
  if (typeof block !== "bigint" || block < 0n || block > BigInt(MAX_BLOCK)) {
    throw new HistoryStoreInputError(file, `${what} ${String(block)} is not a block number (a bigint from 0 to 2^53 - 1)`);
  }
  return Number(block);
}

/** Checks everything `write` is given, before anything is written. */
export function checkWrite(file: string, chainId: number, firstBlock: bigint, blocks: BlocksToWrite): CheckedWrite {
  const refuse = (problem: string) => new HistoryStoreInputError(file, problem);
  checkChainId(file, chainId);
  const first = checkBlock(file, firstBlock, "the first block");
  const fees = blocks.baseFeesWei;
  const count = fees.length;
  if (count > MAX_WRITE_BLOCKS) throw refuse(`${count} blocks in one write, more than ${MAX_WRITE_BLOCKS}: write them in pages`);
  // Compared as a difference: first + count - 1 itself may be past what a JS number holds exactly.
  if (count - 1 > MAX_BLOCK - first) throw refuse(`blocks ${firstBlock} to ${firstBlock + BigInt(count - 1)} go beyond block 2^53 - 1`);
  checkFees(fees, "base fee", refuse);

  const ratios = blocks.gasUsedRatios;
  let gasUsedParts: Uint16Array | undefined;
  if (ratios !== undefined) {
    if (ratios.length !== count) throw refuse(`${ratios.length} gas-used ratios for ${count} blocks`);
    gasUsedParts = new Uint16Array(count);
    for (let i = 0; i < count; i++) {
      const ratio = ratios[i]!;
      if (typeof ratio !== "number" || !(ratio >= 0 && ratio <= MAX_GAS_USED_RATIO))
        throw refuse(`gas-used ratio ${String(ratio)} is not from 0 to ${MAX_GAS_USED_RATIO}`);
      gasUsedParts[i] = Math.round(ratio * GAS_USED_PARTS);
    }
  }

  const blobFees = blocks.blobBaseFeesWei;
  if (blobFees !== undefined) {
    if (blobFees.length !== count) throw refuse(`${blobFees.length} blob base fees for ${count} blocks`);
    checkFees(blobFees, "blob base fee", refuse);
  }

  let anchorTimestamps: Float64Array | undefined;
  const anchors = blocks.anchors ?? [];
  if (anchors.length > 0) {
    anchorTimestamps = new Float64Array(count).fill(Number.NaN);
    for (const anchor of anchors) {
      const offset = typeof anchor.block === "bigint" ? Number(anchor.block - firstBlock) : Number.NaN;
      if (!(offset >= 0 && offset < count))
        throw refuse(`anchor block ${String(anchor.block)} is outside the blocks written (${first} to ${first + count - 1})`);
      if (!Number.isInteger(anchor.timestamp) || anchor.timestamp < 0 || anchor.timestamp > MAX_TIMESTAMP) {
        throw refuse(`anchor timestamp ${String(anchor.timestamp)} of block ${anchor.block} is not unix seconds from 0 to 2^32 - 1`);
      }
      if (!Number.isNaN(anchorTimestamps[offset]!)) throw refuse(`block ${anchor.block} is anchored twice`);
      anchorTimestamps[offset] = anchor.timestamp;
    }
  }
  return { firstBlock: first, count, baseFeesWei: fees, anchorTimestamps, gasUsedParts, blobBaseFeesWei: blobFees };
}

function checkFees(fees: readonly bigint[] | BigUint64Array, what: string, refuse: (problem: string) => Error): void {
  for (let i = 0; i < fees.length; i++) {
    const fee = fees[i];
    if (typeof fee !== "bigint" || fee < 0n || fee > MAX_FEE_WEI)
      throw refuse(`${what} ${String(fee)} (block index ${i}) is not a whole number of wei from 0 to 2^63 - 1`);
  }
}
