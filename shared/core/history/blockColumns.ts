import type { BlockRun } from "./blockRun.ts";

/**
 * Blocks per chunk of the history in memory: chunks come and go whole, so a gap costs nothing and pruning frees memory
 * at once. Not the store's chunks (STORE_CHUNK_BLOCKS, 64: one SQLite row each).
 */
export const HISTORY_CHUNK_BLOCKS = 4_096;

/** How exact a block's timestamp is. */
export const TIME_INTERPOLATED = 0;
/** Seen in the block's header. */
export const TIME_EXACT = 1;
/** Taken from the local clock while no header was seen yet (kept in memory only, never stored as exact). */
export const TIME_CLOCK = 2;

/** Which fee a window, a bucket or a percentile is of: the execution base fee, or the blob base fee (EIP-4844). */
export type FeeSeries = "base" | "blob";

/** A blob base fee not known (a block of a chain or fork without blobs, or one whose RPC did not give it). */
export const UNKNOWN_BLOB_FEE = -1n;
/** Gas-used ratios are kept in parts of 10,000 (as the store keeps them), up to 6.5534; 0xffff where unknown. */
export const RATIO_PARTS = 10_000;
export const UNKNOWN_RATIO = 0xffff;

/** What a block may carry beside its base fee, where the RPC gave it. */
export interface BlockExtras {
  /** Gas used over the gas limit (0..6.5534 kept; larger ones are kept as unknown). */
  readonly gasUsedRatio?: number | undefined;
  /** Wei, 0 to 2^63 - 1. */
  readonly blobBaseFeeWei?: bigint | undefined;
  /** Blob gas used over the block's blob gas maximum, 0..1. */
  readonly blobGasUsedRatio?: number | undefined;
}

/** Ratio parts of a ratio; UNKNOWN_RATIO for one not given or beyond what is kept. */
export function ratioParts(ratio: number | undefined): number {
  return ratio === undefined || !(ratio >= 0) || ratio > (UNKNOWN_RATIO - 1) / RATIO_PARTS ? UNKNOWN_RATIO : Math.round(ratio * RATIO_PARTS);
}

/** The ratio of ratio parts; undefined where unknown. */
export function ratioOfParts(parts: number): number | undefined {
  return parts === UNKNOWN_RATIO ? undefined : parts / RATIO_PARTS;
}

/** The blob columns a chunk gets once one of its blocks has a blob base fee (chains without blobs never pay them): 10 bytes a block. */
interface ChunkBlobs {
  /** UNKNOWN_BLOB_FEE where not known. */
  readonly blobBaseFeesWei: BigInt64Array;
  /** Ratio parts (UNKNOWN_RATIO where not known). */
  readonly blobGasUsedParts: Uint16Array;
}

interface Chunk {
  /** The chunk's first block number (a multiple of HISTORY_CHUNK_BLOCKS). */
  readonly first: number;
  readonly baseFeesWei: BigUint64Array;
  /** Unix seconds; NaN where the block is not held. */
  readonly timestamps: Float64Array;
  /** TIME_INTERPOLATED, TIME_EXACT or TIME_CLOCK per block. */
  readonly timeKinds: Uint8Array;
  held: number;
  /** Gas-used ratio parts (UNKNOWN_RATIO where not known): made on the chunk's first block written with one (2 bytes a block). */
  gasUsedParts: Uint16Array | undefined;
  /** Made on the chunk's first block written with a blob base fee. */
  blobs: ChunkBlobs | undefined;
}

/**
 * A chain's held blocks in columns (base fee, timestamp, how exact the timestamp is), by block number, in chunks of
 * HISTORY_CHUNK_BLOCKS: 17 bytes per block held. Block numbers are below 2^53 (the RPC layer refuses larger ones), so they
 * are plain numbers here. Knows nothing of windows or anchors' meaning: it stores, finds and iterates.
 */
export class BlockColumns {
  readonly #chunks = new Map<number, Chunk>();
  /** Chunk first blocks, ascending. */
  #order: number[] = [];
  #held = 0;
  #oldest: number | undefined;
  #newest: number | undefined;

  get blocksHeld(): number {
    return this.#held;
  }

  get oldestBlock(): number | undefined {
    return this.#oldest;
  }

  get newestBlock(): number | undefined {
    return this.#newest;
  }

  has(block: number): boolean {
    const chunk = this.#chunks.get(block - (block % HISTORY_CHUNK_BLOCKS));
    return chunk !== undefined && !Number.isNaN(chunk.timestamps[block % HISTORY_CHUNK_BLOCKS]!);
  }

  /** The block's base fee; undefined when not held. */
  baseFeeAt(block: number): bigint | undefined {
    const chunk = this.#chunks.get(block - (block % HISTORY_CHUNK_BLOCKS));
    const offset = block % HISTORY_CHUNK_BLOCKS;
    return chunk === undefined || Number.isNaN(chunk.timestamps[offset]!) ? undefined : chunk.baseFeesWei[offset]!;
  }

  /** The block's blob base fee; undefined when not held or not known. */
  blobBaseFeeAt(block: number): bigint | undefined {
    const chunk = this.#chunks.get(block - (block % HISTORY_CHUNK_BLOCKS));
    const fee = chunk?.blobs?.blobBaseFeesWei[block % HISTORY_CHUNK_BLOCKS];
    return fee === undefined || fee < 0n || Number.isNaN(chunk!.timestamps[block % HISTORY_CHUNK_BLOCKS]!) ? undefined : fee;
  }

  /** The block's blob gas used ratio (0..1); undefined when not held or not known. */
  blobGasUsedRatioAt(block: number): number | undefined {
    const chunk = this.#chunks.get(block - (block % HISTORY_CHUNK_BLOCKS));
    const parts = chunk?.blobs?.blobGasUsedParts[block % HISTORY_CHUNK_BLOCKS];
    return parts === undefined || Number.isNaN(chunk!.timestamps[block % HISTORY_CHUNK_BLOCKS]!) ? undefined : ratioOfParts(parts);
  }

  /**
   * Writes what a held block carries beside its base fee (what is not given keeps its value). Returns the blob base fee
   * it replaced, null for a block without one before, or undefined when none was given or it was already that.
   */
  setExtras(block: number, extras: BlockExtras): bigint | null | undefined {
    const chunk = this.#chunks.get(block - (block % HISTORY_CHUNK_BLOCKS));
    const offset = block % HISTORY_CHUNK_BLOCKS;
    if (chunk === undefined || Number.isNaN(chunk.timestamps[offset]!)) return undefined;
    if (extras.gasUsedRatio !== undefined) {
      chunk.gasUsedParts ??= new Uint16Array(HISTORY_CHUNK_BLOCKS).fill(UNKNOWN_RATIO);
      chunk.gasUsedParts[offset] = ratioParts(extras.gasUsedRatio);
    }
    const fee = extras.blobBaseFeeWei;
    if (fee === undefined) return undefined;
    const columns = (chunk.blobs ??= {
      blobBaseFeesWei: new BigInt64Array(HISTORY_CHUNK_BLOCKS).fill(UNKNOWN_BLOB_FEE),
      blobGasUsedParts: new Uint16Array(HISTORY_CHUNK_BLOCKS).fill(UNKNOWN_RATIO),
    });
    if (extras.blobGasUsedRatio !== undefined) columns.blobGasUsedParts[offset] = ratioParts(extras.blobGasUsedRatio);
    const old = columns.blobBaseFeesWei[offset]!;
    if (old === fee) return undefined;
    columns.blobBaseFeesWei[offset] = fee;
    return old < 0n ? null : old;
  }

  /** The block's timestamp; NaN when not held. */
  timestampAt(block: number): number {
    return this.#chunks.get(block - (block % HISTORY_CHUNK_BLOCKS))?.timestamps[block % HISTORY_CHUNK_BLOCKS] ?? Number.NaN;
  }

  timeKindAt(block: number): number {
    return this.#chunks.get(block - (block % HISTORY_CHUNK_BLOCKS))?.timeKinds[block % HISTORY_CHUNK_BLOCKS] ?? TIME_INTERPOLATED;
  }

  /**
   * Writes a block's base fee (its timestamp is set apart, by `setTime`; a new block starts with its neighbour's or
   * 0). Returns the fee it replaced, null for a block not held before, or undefined when the fee was already that.
   */
  setBaseFee(block: number, baseFeeWei: bigint): bigint | null | undefined {
    const chunk = this.#chunkFor(block);
    const offset = block % HISTORY_CHUNK_BLOCKS;
    if (Number.isNaN(chunk.timestamps[offset]!)) {
      chunk.baseFeesWei[offset] = baseFeeWei;
      chunk.timestamps[offset] = 0;
      chunk.timeKinds[offset] = TIME_INTERPOLATED;
      if (chunk.gasUsedParts) chunk.gasUsedParts[offset] = UNKNOWN_RATIO;
      if (chunk.blobs) {
        chunk.blobs.blobBaseFeesWei[offset] = UNKNOWN_BLOB_FEE;
        chunk.blobs.blobGasUsedParts[offset] = UNKNOWN_RATIO;
      }
      chunk.held++;
      this.#held++;
      if (this.#oldest === undefined || block < this.#oldest) this.#oldest = block;
      if (this.#newest === undefined || block > this.#newest) this.#newest = block;
      return null;
    }
    const old = chunk.baseFeesWei[offset]!;
    if (old === baseFeeWei) return undefined;
    chunk.baseFeesWei[offset] = baseFeeWei;
    return old;
  }

  /** Sets a held block's timestamp and how exact it is (nothing for a block not held). */
  setTime(block: number, timestamp: number, kind: number): void {
    const chunk = this.#chunks.get(block - (block % HISTORY_CHUNK_BLOCKS));
    const offset = block % HISTORY_CHUNK_BLOCKS;
    if (chunk === undefined || Number.isNaN(chunk.timestamps[offset]!)) return;
    chunk.timestamps[offset] = timestamp;
    chunk.timeKinds[offset] = kind;
  }

  /** The nearest held block at or below `block` whose timestamp has one of `kinds`, searching back at most `limit` blocks. */
  findBack(block: number, kinds: readonly number[], limit: number): number | undefined {
    const floor = Math.max(this.#oldest ?? block, block - limit);
    for (let b = block; b >= floor; b--) {
      const chunk = this.#chunks.get(b - (b % HISTORY_CHUNK_BLOCKS));
      if (chunk === undefined) {
        b -= b % HISTORY_CHUNK_BLOCKS; // skip the missing chunk
        continue;
      }
      const offset = b % HISTORY_CHUNK_BLOCKS;
      if (!Number.isNaN(chunk.timestamps[offset]!) && kinds.includes(chunk.timeKinds[offset]!)) return b;
    }
    return undefined;
  }

  /** The nearest held block at or above `block` whose timestamp has one of `kinds`, searching forward at most `limit` blocks. */
  findForward(block: number, kinds: readonly number[], limit: number): number | undefined {
    const ceiling = Math.min(this.#newest ?? block, block + limit);
    for (let b = block; b <= ceiling; b++) {
      const chunk = this.#chunks.get(b - (b % HISTORY_CHUNK_BLOCKS));
      if (chunk === undefined) {
        b += HISTORY_CHUNK_BLOCKS - 1 - (b % HISTORY_CHUNK_BLOCKS);
        continue;
      }
      const offset = b % HISTORY_CHUNK_BLOCKS;
      if (!Number.isNaN(chunk.timestamps[offset]!) && kinds.includes(chunk.timeKinds[offset]!)) return b;
    }
    return undefined;
  }

  /** The first held block whose timestamp is at least `seconds` (timestamps never decrease with the block number). */
  firstAtOrAfter(seconds: number): number | undefined {
    return this.#firstWhere(seconds, false);
  }

  /** The first held block whose timestamp is above `seconds`. */
  firstAfter(seconds: number): number | undefined {
    return this.#firstWhere(seconds, true);
  }

  #firstWhere(seconds: number, strictlyAfter: boolean): number | undefined {
    const before = (time: number) => (strictlyAfter ? time <= seconds : time < seconds);
    // The first chunk whose newest held block is at or after `seconds`...
    let low = 0;
    let high = this.#order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(this.#lastTime(this.#chunks.get(this.#order[middle]!)!))) low = middle + 1;
      else high = middle;
    }
    if (low === this.#order.length) return undefined;
    // ...holds it.
    const chunk = this.#chunks.get(this.#order[low]!)!;
    for (let offset = 0; offset < HISTORY_CHUNK_BLOCKS; offset++) {
      const time = chunk.timestamps[offset]!;
      if (!Number.isNaN(time) && !before(time)) return chunk.first + offset;
    }
    return undefined;
  }

  /** Visits the fees of `series` of held blocks in [fromBlock, toBlock] (blocks without a blob fee skipped for "blob"). */
  forEachHeld(fromBlock: number, toBlock: number, visit: (feeWei: bigint, block: number) => void, series: FeeSeries = "base"): void {
    for (const run of this.runsBetween(fromBlock, toBlock)) {
      const first = Number(run.firstBlock);
      if (series === "base") {
        for (let i = 0; i < run.baseFeesWei.length; i++) visit(run.baseFeesWei[i]!, first + i);
        continue;
      }
      const blobFees = run.blobBaseFeesWei;
      if (blobFees === undefined) continue;
      for (let i = 0; i < blobFees.length; i++) if (blobFees[i]! >= 0n) visit(blobFees[i]!, first + i);
    }
  }

  /** Held blocks in [fromBlock, toBlock] as runs of consecutive blocks within one chunk, oldest first (views). */
  *runsBetween(fromBlock: number, toBlock: number): Generator<BlockRun> {
    if (toBlock < fromBlock) return;
    let index = this.#chunkIndexAtOrAfter(fromBlock - (fromBlock % HISTORY_CHUNK_BLOCKS));
    for (; index < this.#order.length; index++) {
      const chunk = this.#chunks.get(this.#order[index]!);
      if (chunk === undefined || chunk.first > toBlock) return;
      const start = Math.max(fromBlock, chunk.first) - chunk.first;
      const end = Math.min(toBlock, chunk.first + HISTORY_CHUNK_BLOCKS - 1) - chunk.first;
      let offset = start;
      while (offset <= end) {
        while (offset <= end && Number.isNaN(chunk.timestamps[offset]!)) offset++;
        const runStart = offset;
        while (offset <= end && !Number.isNaN(chunk.timestamps[offset]!)) offset++;
        if (offset > runStart) {
          yield {
            firstBlock: BigInt(chunk.first + runStart),
            timestamps: chunk.timestamps.subarray(runStart, offset),
            baseFeesWei: chunk.baseFeesWei.subarray(runStart, offset),
            ...(chunk.gasUsedParts ? { gasUsedParts: chunk.gasUsedParts.subarray(runStart, offset) } : {}),
            ...(chunk.blobs
              ? {
                  blobBaseFeesWei: chunk.blobs.blobBaseFeesWei.subarray(runStart, offset),
                  blobGasUsedParts: chunk.blobs.blobGasUsedParts.subarray(runStart, offset),
                }
              : {}),
          };
        }
      }
    }
  }

  /** The held stretches of consecutive blocks, oldest first (a scan of every chunk: for occasional use). */
  heldRanges(): { fromBlock: number; toBlock: number }[] {
    const ranges: { fromBlock: number; toBlock: number }[] = [];
    for (const first of this.#order) {
      const chunk = this.#chunks.get(first)!;
      for (let offset = 0; offset < HISTORY_CHUNK_BLOCKS; offset++) {
        if (Number.isNaN(chunk.timestamps[offset]!)) continue;
        const block = first + offset;
        const last = ranges.at(-1);
        if (last !== undefined && last.toBlock === block - 1) last.toBlock = block;
        else ranges.push({ fromBlock: block, toBlock: block });
      }
    }
    return ranges;
  }

  /** Drops every chunk that lies wholly below `block`; returns how many blocks were dropped. */
  dropChunksBelow(block: number): number {
    let dropped = 0;
    while (this.#order.length > 0 && this.#order[0]! + HISTORY_CHUNK_BLOCKS <= block) {
      const first = this.#order.shift()!;
      dropped += this.#chunks.get(first)!.held;
      this.#chunks.delete(first);
    }
    if (dropped > 0) {
      this.#held -= dropped;
      this.#oldest = this.#held === 0 ? undefined : this.findForward(this.#order[0]!, [TIME_INTERPOLATED, TIME_EXACT, TIME_CLOCK], HISTORY_CHUNK_BLOCKS);
      if (this.#held === 0) this.#newest = undefined;
    }
    return dropped;
  }

  #lastTime(chunk: Chunk): number {
    for (let offset = HISTORY_CHUNK_BLOCKS - 1; offset >= 0; offset--) {
      const time = chunk.timestamps[offset]!;
      if (!Number.isNaN(time)) return time;
    }
    return Number.NEGATIVE_INFINITY;
  }

  #chunkIndexAtOrAfter(first: number): number {
    let low = 0;
    let high = this.#order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#order[middle]! < first) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #chunkFor(block: number): Chunk {
    const first = block - (block % HISTORY_CHUNK_BLOCKS);
    let chunk = this.#chunks.get(first);
    if (chunk === undefined) {
      chunk = {
        first,
        baseFeesWei: new BigUint64Array(HISTORY_CHUNK_BLOCKS),
        timestamps: new Float64Array(HISTORY_CHUNK_BLOCKS).fill(Number.NaN),
        timeKinds: new Uint8Array(HISTORY_CHUNK_BLOCKS),
        held: 0,
        gasUsedParts: undefined,
        blobs: undefined,
      };
      this.#chunks.set(first, chunk);
      this.#order.splice(this.#chunkIndexAtOrAfter(first), 0, first);
    }
    return chunk;
  }
}
