/** A run of consecutive blocks one endpoint supplied. */
export interface SourcedRange {
  readonly fromBlock: bigint;
  readonly toBlock: bigint;
  /** The endpoint's redacted URL. */
  readonly source: string;
}

/**
 * Which endpoint supplied each block the chain's history holds, for this run of the service (blocks loaded from the
 * store have no known source): what a seam is judged with (a block is one witness, its source's), and what is
 * fetched again from an honest endpoint when its source is found lying. Runs of one source are kept merged.
 */
export class BlockSources {
  /** Oldest first, not overlapping. */
  #ranges: SourcedRange[] = [];

  /** `fromBlock..toBlock` now hold what `source` supplied (replacing whatever source they had). */
  record(fromBlock: bigint, toBlock: bigint, source: string): void {
    if (toBlock < fromBlock) return;
    const kept: SourcedRange[] = [];
    for (const range of this.#ranges) {
      if (range.toBlock < fromBlock || range.fromBlock > toBlock) kept.push(range);
      else {
        if (range.fromBlock < fromBlock) kept.push({ ...range, toBlock: fromBlock - 1n });
        if (range.toBlock > toBlock) kept.push({ ...range, fromBlock: toBlock + 1n });
      }
    }
    kept.push({ fromBlock, toBlock, source });
    kept.sort((a, b) => (a.fromBlock < b.fromBlock ? -1 : 1));
    const merged: SourcedRange[] = [];
    for (const range of kept) {
      const last = merged.at(-1);
      if (last !== undefined && last.source === range.source && last.toBlock + 1n === range.fromBlock)
        merged[merged.length - 1] = { ...last, toBlock: range.toBlock };
      else merged.push(range);
    }
    this.#ranges = merged;
  }

  /** Who supplied `block` in this run; undefined when not known (kept from before, or not held). */
  sourceAt(block: bigint): string | undefined {
    return this.#ranges.find((range) => range.fromBlock <= block && block <= range.toBlock)?.source;
  }

  /** The runs `source` supplied, oldest first. */
  rangesOf(source: string): readonly SourcedRange[] {
    return this.#ranges.filter((range) => range.source === source);
  }

  /** Blocks below `block` are no longer held (the horizon moved): their sources are forgotten. */
  forgetBelow(block: bigint): void {
    this.#ranges = this.#ranges.filter((range) => range.toBlock >= block).map((range) => (range.fromBlock < block ? { ...range, fromBlock: block } : range));
  }
}
