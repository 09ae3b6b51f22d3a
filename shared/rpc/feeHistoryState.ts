import { BlockWindow } from "../core/fees/blockWindow.ts";
import { type FeeSnapshot, snapshotOf } from "../core/fees/feeSnapshot.ts";
import { TipWindow } from "../core/fees/recentTips.ts";
import { RECENT_BLOCKS } from "../core/fees/suggestedGasFees.ts";
import type { FeeHistoryAnswer } from "./parseRpcAnswers.ts";

/**
 * What a chain's eth_feeHistory answers taught us: the base fees of its newest `windowBlocks` blocks, the tips of the
 * newest ones, the next block's base fee, and the snapshot made of them. Answers go in through `apply`, which says
 * whether anything changed; the snapshot is made again only then, so an unchanged state keeps the same object.
 */
export class FeeHistoryState {
  readonly #chainId: number;
  readonly #blockTimeMs: number;
  readonly #window: BlockWindow;
  /** The tips of the newest blocks, read in the same eth_feeHistory calls (those ending at the head). */
  readonly #tips = new TipWindow(RECENT_BLOCKS);
  #nextBaseFeeWei: bigint | undefined;
  #snapshot: FeeSnapshot | undefined;

  constructor(options: { chainId: number; windowBlocks: number; blockTimeMs: number }) {
    this.#chainId = options.chainId;
    this.#blockTimeMs = options.blockTimeMs;
    this.#window = new BlockWindow(options.windowBlocks);
  }

  /** The newest block held; undefined before the first answer. */
  get newestBlock(): bigint | undefined {
    return this.#window.newestBlock;
  }

  get blocksHeld(): number {
    return this.#window.size;
  }

  /** The statistics of the blocks held (undefined before the first answer); a new object after each change only. */
  get snapshot(): FeeSnapshot | undefined {
    return this.#snapshot;
  }

  /**
   * Whether the answer contradicts the blocks held: it ends before the newest, or gives another fee for a block held.
   * That is a reorganisation or a lagging node... or an endpoint that now serves another chain, so the feed checks
   * the endpoint's chain id again before applying it.
   */
  contradicts(answer: FeeHistoryAnswer): boolean {
    const oldest = this.#window.oldestBlock;
    const newest = this.#window.newestBlock;
    if (oldest === undefined || newest === undefined) return false;
    if (answer.oldestBlock + BigInt(answer.baseFeesWei.length) - 1n < newest) return true;
    return this.#rewritesHeld(answer);
  }

  /**
   * Writes an answer: new blocks, re-mined blocks' fees, tips and the next block's base fee. True when any of them
   * changed (and with it the snapshot); false when the answer only confirmed what is held.
   */
  apply(answer: FeeHistoryAnswer): boolean {
    const answerNewest = answer.oldestBlock + BigInt(answer.baseFeesWei.length - 1);
    const heldNewest = this.#window.newestBlock;
    let changed = heldNewest === undefined || answerNewest > heldNewest || this.#rewritesHeld(answer);
    this.#window.write(answer.oldestBlock, answer.baseFeesWei);
    if (answer.tips && this.#tips.write(answer.tips)) changed = true;
    // An endpoint behind the blocks held says nothing about the block after them.
    if ((heldNewest === undefined || answerNewest >= heldNewest) && answer.nextBaseFeeWei !== this.#nextBaseFeeWei) {
      this.#nextBaseFeeWei = answer.nextBaseFeeWei;
      changed = true;
    }
    if (changed) {
      this.#snapshot = snapshotOf(this.#chainId, this.#window, this.#nextBaseFeeWei, { recentTips: this.#tips.blocks, blockTimeMs: this.#blockTimeMs });
    }
    return changed;
  }

  /** The oldest held block to which the answer gives another fee than the one held; undefined when none. */
  oldestRewrite(answer: FeeHistoryAnswer): bigint | undefined {
    const oldest = this.#window.oldestBlock;
    const newest = this.#window.newestBlock;
    if (oldest === undefined || newest === undefined) return undefined;
    const held = this.#window.baseFeesWei;
    for (let i = 0; i < answer.baseFeesWei.length; i++) {
      const block = answer.oldestBlock + BigInt(i);
      if (block < oldest) continue;
      if (block > newest) break;
      if (held[Number(block - oldest)] !== answer.baseFeesWei[i]) return block;
    }
    return undefined;
  }

  /** Whether the answer gives another fee for a block held. */
  #rewritesHeld(answer: FeeHistoryAnswer): boolean {
    return this.oldestRewrite(answer) !== undefined;
  }
}
