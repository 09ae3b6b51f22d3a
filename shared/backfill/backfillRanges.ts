/** Consecutive blocks `fromBlock..toBlock`, both included (`fromBlock <= toBlock`). */
export interface BlockRange {
  readonly fromBlock: bigint;
  readonly toBlock: bigint;
}

/** The blocks a range holds. */
export function blocksIn(range: BlockRange): number {
  return Number(range.toBlock - range.fromBlock + 1n);
}

/**
 * A set of blocks kept as sorted, disjoint, non-adjacent ranges (adjacent and overlapping ones merge), so that
 * millions of blocks fetched page by page stay a handful of ranges.
 */
export class BlockRangeSet {
  /** Oldest first; no two overlap or touch. */
  #ranges: BlockRange[] = [];

  constructor(ranges: Iterable<BlockRange> = []) {
    for (const range of ranges) this.add(range);
  }

  /** The ranges, oldest first. */
  get ranges(): readonly BlockRange[] {
    return this.#ranges;
  }

  add(range: BlockRange): void {
    if (range.fromBlock > range.toBlock) throw new RangeError(`a block range runs from its oldest block up (got ${range.fromBlock}..${range.toBlock})`);
    let { fromBlock, toBlock } = range;
    const kept: BlockRange[] = [];
    let inserted = false;
    for (const held of this.#ranges) {
      if (held.toBlock + 1n < fromBlock) kept.push(held);
      else if (toBlock + 1n < held.fromBlock) {
        if (!inserted) kept.push({ fromBlock, toBlock });
        inserted = true;
        kept.push(held);
      } else {
        if (held.fromBlock < fromBlock) fromBlock = held.fromBlock;
        if (held.toBlock > toBlock) toBlock = held.toBlock;
      }
    }
    if (!inserted) kept.push({ fromBlock, toBlock });
    this.#ranges = kept;
  }

  /** The blocks of `within` that the set does not hold, newest first. */
  missingNewestFirst(within: BlockRange): BlockRange[] {
    const missing: BlockRange[] = [];
    let top = within.toBlock;
    for (let i = this.#ranges.length - 1; i >= 0 && top >= within.fromBlock; i--) {
      const held = this.#ranges[i]!;
      if (held.fromBlock > top) continue;
      if (held.toBlock < top) missing.push({ fromBlock: held.toBlock + 1n > within.fromBlock ? held.toBlock + 1n : within.fromBlock, toBlock: top });
      top = held.fromBlock - 1n;
    }
    if (top >= within.fromBlock) missing.push({ fromBlock: within.fromBlock, toBlock: top });
    return missing;
  }
}
