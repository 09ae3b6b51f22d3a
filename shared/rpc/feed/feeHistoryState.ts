import { BlockWindow } from "../../core/fees/blockWindow.ts";
import { type BlockTips, TipWindow } from "../../core/fees/recentTips.ts";
import { RECENT_BLOCKS } from "../../core/fees/suggestedGasFees.ts";
import type { FeedBlocks } from "./feedReport.ts";
import type { FeeHistoryAnswer } from "../connection/parseRpcAnswers.ts";

/** What an answer changed: whether anything did, and the blocks to report (those new or with another fee). */
export interface AppliedAnswer {
  readonly changed: boolean;
  readonly blocks: FeedBlocks | undefined;
}

/**
 * What the feed remembers of the chain's recent blocks to follow it: the base fees of its newest `windowBlocks`
 * blocks (to tell new and re-mined blocks from those held, and where the next request starts), the tips of the newest
 * ones and the next block's base fee. It computes no statistics: the blocks an answer brings go out in the feed's
 * report, and the chain's record makes the statistics of them.
 */
export class FeeHistoryState {
  readonly #window: BlockWindow;
  /** The tips of the newest blocks, read in the same eth_feeHistory calls (those ending at the head). */
  readonly #tips = new TipWindow(RECENT_BLOCKS);
  #recentTips: readonly BlockTips[] = Object.freeze([]);
  #nextBaseFeeWei: bigint | undefined;
  #nextBlobBaseFeeWei: bigint | undefined;

  constructor(options: { windowBlocks: number }) {
    this.#window = new BlockWindow(options.windowBlocks);
  }

  /** The newest block held; undefined before the first answer. */
  get newestBlock(): bigint | undefined {
    return this.#window.newestBlock;
  }

  get blocksHeld(): number {
    return this.#window.size;
  }

  /** The next block's base fee as the newest answer at the head gave it. */
  get nextBaseFeeWei(): bigint | undefined {
    return this.#nextBaseFeeWei;
  }

  /** The next block's blob base fee as the newest answer at the head gave it (undefined on a chain without blobs). */
  get nextBlobBaseFeeWei(): bigint | undefined {
    return this.#nextBlobBaseFeeWei;
  }

  /** The newest blocks' tips, oldest first; a new frozen array after each change only. */
  get recentTips(): readonly BlockTips[] {
    return this.#recentTips;
  }

  /**
   * Takes blocks held from before (a restart: the newest blocks of the stored history) as the blocks the feed holds,
   * so that its first request asks only for what is newer, and its overlap is checked against them.
   */
  seed(blocks: FeedBlocks): void {
    if (this.#window.size === 0 && blocks.baseFeesWei.length > 0) this.#window.write(blocks.firstBlock, blocks.baseFeesWei);
  }

  /**
   * Whether the answer contradicts the blocks held: it ends before the newest, or gives another fee for a block held.
   * That is a reorganisation or a lagging node... or an endpoint that now serves another chain, so the feed checks
   * the endpoint's chain id again before applying it.
   */
  contradicts(answer: FeeHistoryAnswer): boolean {
    const newest = this.#window.newestBlock;
    if (newest === undefined) return false;
    if (answer.oldestBlock + BigInt(answer.baseFeesWei.length) - 1n < newest) return true;
    return this.oldestRewrite(answer) !== undefined;
  }

  /**
   * Writes an answer: new blocks, re-mined blocks' fees, tips and the next block's base fee. `changed` when any of them
   * changed; `blocks` the answer's blocks from the first one new or re-mined on (with their gas-used ratios and blob
   * base fees), to be reported; both nothing when the answer brought nothing new.
   */
  apply(answer: FeeHistoryAnswer): AppliedAnswer {
    const count = answer.baseFeesWei.length;
    const answerNewest = answer.oldestBlock + BigInt(count - 1);
    const heldNewest = this.#window.newestBlock;
    const rewritten = this.oldestRewrite(answer);
    const firstNew = heldNewest === undefined || heldNewest < answer.oldestBlock ? answer.oldestBlock : heldNewest + 1n;
    const from = rewritten !== undefined && rewritten < firstNew ? rewritten : firstNew;
    this.#window.write(answer.oldestBlock, answer.baseFeesWei);
    let changed = from <= answerNewest;
    if (answer.tips && this.#tips.write(answer.tips)) {
      this.#recentTips = Object.freeze([...this.#tips.blocks]);
      changed = true;
    }
    // An endpoint behind the blocks held says nothing about the block after them.
    if ((heldNewest === undefined || answerNewest >= heldNewest) && answer.nextBaseFeeWei !== this.#nextBaseFeeWei) {
      this.#nextBaseFeeWei = answer.nextBaseFeeWei;
      changed = true;
    }
    if ((heldNewest === undefined || answerNewest >= heldNewest) && answer.nextBlobBaseFeeWei !== this.#nextBlobBaseFeeWei) {
      this.#nextBlobBaseFeeWei = answer.nextBlobBaseFeeWei;
      changed = true;
    }
    if (from > answerNewest) return { changed, blocks: undefined };
    const offset = Number(from - answer.oldestBlock);
    const perBlock = <T>(values: readonly T[] | undefined) => (values?.length === count ? Object.freeze(values.slice(offset)) : undefined);
    const gasUsedRatios = perBlock(answer.gasUsedRatios);
    const blobBaseFeesWei = perBlock(answer.blobBaseFeesWei);
    const blobGasUsedRatios = blobBaseFeesWei && perBlock(answer.blobGasUsedRatios);
    const blocks: FeedBlocks = Object.freeze({
      firstBlock: from,
      baseFeesWei: Object.freeze(answer.baseFeesWei.slice(offset)),
      ...(gasUsedRatios ? { gasUsedRatios } : {}),
      ...(blobBaseFeesWei ? { blobBaseFeesWei } : {}),
      ...(blobGasUsedRatios ? { blobGasUsedRatios } : {}),
    });
    return { changed: true, blocks };
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
}
