/**
 * The reward percentiles every `eth_feeHistory` call of the feed asks for that ends at the chain's head, in this
 * order: the smallest tip a block included, the tip at its 10th percentile of gas (what the cheap end of the block
 * paid, and so roughly what was enough to get in), and its largest tip.
 */
export const REWARD_PERCENTILES = [0, 10, 100] as const;

/** The priority fees (effective tips, in wei) one mined block paid, at REWARD_PERCENTILES. Zero for an empty block. */
export interface BlockTips {
  readonly block: bigint;
  readonly minWei: bigint;
  readonly p10Wei: bigint;
  readonly maxWei: bigint;
}

/** One `reward` row of `eth_feeHistory` (at REWARD_PERCENTILES) as BlockTips. */
export function blockTipsOf(block: bigint, rewardWei: readonly bigint[]): BlockTips {
  if (rewardWei.length !== REWARD_PERCENTILES.length) {
    throw new RangeError(`a reward row holds ${REWARD_PERCENTILES.length} values (got ${rewardWei.length})`);
  }
  const [minWei, p10Wei, maxWei] = rewardWei as [bigint, bigint, bigint];
  return Object.freeze({ block, minWei, p10Wei, maxWei });
}

/**
 * The tips of the newest `capacityBlocks` blocks whose rewards were fetched, keyed by block number, oldest first.
 * A block written again (re-mined) replaces its old tips; blocks older than the newest `capacityBlocks` are dropped.
 * Unlike the base-fee window it may have gaps (a block whose answer carried no rewards is simply absent).
 */
export class TipWindow {
  readonly capacityBlocks: number;
  #blocks: readonly BlockTips[] = [];

  constructor(capacityBlocks: number) {
    if (!Number.isInteger(capacityBlocks) || capacityBlocks < 1) throw new RangeError(`a tip window holds at least one block (got ${capacityBlocks})`);
    this.capacityBlocks = capacityBlocks;
  }

  /** Oldest first; an immutable array, replaced on each change. */
  get blocks(): readonly BlockTips[] {
    return this.#blocks;
  }

  /** Writes tips; true when the window changed. */
  write(tips: readonly BlockTips[]): boolean {
    if (tips.length === 0) return false;
    let newest = this.#blocks[this.#blocks.length - 1]?.block ?? -1n;
    for (const row of tips) if (row.block > newest) newest = row.block;
    // The newest capacityBlocks block numbers, not entries: a gap does not keep older blocks alive.
    const floor = newest - BigInt(this.capacityBlocks) + 1n;
    const byBlock = new Map(this.#blocks.filter((row) => row.block >= floor).map((row) => [row.block, row]));
    let changed = byBlock.size !== this.#blocks.length;
    for (const row of tips) {
      if (row.block < floor) continue;
      const held = byBlock.get(row.block);
      if (held && held.minWei === row.minWei && held.p10Wei === row.p10Wei && held.maxWei === row.maxWei) continue;
      byBlock.set(row.block, row);
      changed = true;
    }
    if (!changed) return false;
    this.#blocks = Object.freeze([...byBlock.values()].sort((a, b) => (a.block < b.block ? -1 : a.block > b.block ? 1 : 0)));
    return true;
  }
}
