/**
 * The base fees of the newest `capacityBlocks` consecutive blocks, keyed by block number.
 *
 * Invariant: the blocks held are contiguous (no gaps, no duplicates) from `oldestBlock` to `newestBlock`.
 * A block written again (a re-mined block after a reorganisation) replaces its old value. A range that
 * does not touch the blocks held starts the window afresh, since keeping both would leave a gap.
 */
export class BlockWindow {
  readonly capacityBlocks: number;
  #oldestBlock = 0n;
  #baseFeesWei: bigint[] = [];

  constructor(capacityBlocks: number) {
    if (!Number.isInteger(capacityBlocks) || capacityBlocks < 1) {
      throw new RangeError(`a window holds at least one block (got ${capacityBlocks})`);
    }
    this.capacityBlocks = capacityBlocks;
  }

  get size(): number {
    return this.#baseFeesWei.length;
  }

  get oldestBlock(): bigint | undefined {
    return this.size === 0 ? undefined : this.#oldestBlock;
  }

  get newestBlock(): bigint | undefined {
    return this.size === 0 ? undefined : this.#oldestBlock + BigInt(this.size - 1);
  }

  /** Base fees in block order, oldest first. */
  get baseFeesWei(): readonly bigint[] {
    return this.#baseFeesWei;
  }

  /** The newest `count` base fees (or all held, if fewer), oldest first. */
  newest(count: number): readonly bigint[] {
    return this.#baseFeesWei.slice(Math.max(0, this.size - count));
  }

  /**
   * Writes the base fees of consecutive blocks starting at `firstBlock`. Blocks already held are replaced,
   * newer ones appended, and the oldest dropped beyond capacity. Blocks older than the oldest held are
   * ignored (the window never grows backwards, so a lagging endpoint cannot erase newer data), except
   * while the window is empty.
   */
  write(firstBlock: bigint, baseFeesWei: readonly bigint[]): void {
    if (firstBlock < 0n) throw new RangeError(`block numbers are not negative (got ${firstBlock})`);
    for (const fee of baseFeesWei) {
      if (fee < 0n) throw new RangeError(`a base fee cannot be negative (got ${fee} wei)`);
    }
    const newest = this.newestBlock;
    if (newest === undefined || firstBlock > newest + 1n) {
      this.#reset(firstBlock);
    }
    baseFeesWei.forEach((fee, offset) => this.#set(firstBlock + BigInt(offset), fee));
    this.#trim();
  }

  #reset(firstBlock: bigint): void {
    this.#oldestBlock = firstBlock;
    this.#baseFeesWei = [];
  }

  #set(block: bigint, fee: bigint): void {
    if (block < this.#oldestBlock) return;
    const index = Number(block - this.#oldestBlock);
    if (index < this.#baseFeesWei.length) {
      this.#baseFeesWei[index] = fee;
    } else {
      this.#baseFeesWei.push(fee);
    }
  }

  #trim(): void {
    const excess = this.#baseFeesWei.length - this.capacityBlocks;
    if (excess <= 0) return;
    this.#baseFeesWei.splice(0, excess);
    this.#oldestBlock += BigInt(excess);
  }
}
