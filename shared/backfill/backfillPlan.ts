import type { BackfillAnchors, BlockAnchor } from "./backfillAnchors.ts";
import { blocksIn, type BlockRange, type BlockRangeSet } from "./backfillRanges.ts";

/** Blocks in one `eth_feeHistory` page: what geth and most providers serve at most in one call. */
export const DEFAULT_PAGE_BLOCKS = 1024;

/** Anchors this many blocks apart (or more) give the chain's spacing; closer ones say too little. */
const MIN_SPACING_SPAN_BLOCKS = 16n;

export interface BackfillPlanInputs {
  /** Every block held or being fetched (the store's ranges, the live feed's, the pages in flight). */
  readonly held: BlockRangeSet;
  /** The newest block the live feed holds, with its exact timestamp: the top of the history and the horizon's origin. */
  readonly newest: BlockAnchor;
  /** Every exact timestamp known (`newest` among them or not). */
  readonly anchors: BackfillAnchors;
  /** How far back the history reaches: blocks whose timestamp is at least `newest.timestamp - horizonSeconds`. */
  readonly horizonSeconds: number;
  /** The chain's block spacing as configured: the guess until the anchors tell better. */
  readonly blockSpacingSeconds: number;
  readonly pageBlocks: number;
}

/**
 * What is left to fetch. The oldest block needed (`floorBlock`) is exact once a known timestamp lies before the
 * horizon (every block up to that one is older than the horizon: none is needed) or the plan reaches the genesis;
 * until then it is estimated from the oldest timestamp known and the chain's spacing, and each page fetched (whose two
 * ends are exact anchors) makes it better: a plan made after the pages of an estimate ran out reaches further back,
 * until a fetched block lies before the horizon or the genesis is reached.
 */
export interface BackfillPlan {
  readonly floorBlock: bigint;
  /** The floor is bounded by a known timestamp before the horizon (or the genesis), not estimated. */
  readonly floorExact: boolean;
  /** The blocks of `floorBlock..newest.block` not held, newest first. */
  readonly missing: readonly BlockRange[];
  /** Blocks in `missing`. */
  readonly blocksToGo: number;
  /** Nothing more is needed as far as the plan knows (the horizon or the genesis is reached). */
  readonly complete: boolean;
}

export function planBackfill(inputs: BackfillPlanInputs): BackfillPlan {
  const { held, newest, horizonSeconds, pageBlocks } = inputs;
  if (!(horizonSeconds > 0)) throw new RangeError(`a history horizon is a positive duration (got ${horizonSeconds} s)`);
  if (!Number.isInteger(pageBlocks) || pageBlocks < 1) throw new RangeError(`a page holds at least one block (got ${pageBlocks})`);
  const { floorBlock, floorExact } = floorOf(inputs);
  const missing = held.missingNewestFirst({ fromBlock: floorBlock, toBlock: newest.block });
  const blocksToGo = missing.reduce((sum, range) => sum + blocksIn(range), 0);
  return { floorBlock, floorExact, missing, blocksToGo, complete: missing.length === 0 };
}

/** The oldest block needed, and whether a known timestamp (or the genesis) bounds it rather than an estimate. */
function floorOf(inputs: BackfillPlanInputs): { floorBlock: bigint; floorExact: boolean } {
  const { anchors, newest, horizonSeconds, pageBlocks } = inputs;
  const horizonStart = newest.timestamp - horizonSeconds;
  const beyond = anchors.newestBefore(horizonStart);
  if (beyond !== undefined && beyond.block < newest.block) return { floorBlock: beyond.block + 1n, floorExact: true };
  // Extrapolated from the oldest timestamp known (newer than the horizon), rounded down to whole pages below it: a
  // page costs the same requests whether full or not, and a full one more likely crosses the horizon.
  const from = anchors.oldest !== undefined && anchors.oldest.block < newest.block ? anchors.oldest : newest;
  const neededBlocks = Math.ceil((from.timestamp - horizonStart) / spacingSeconds(inputs));
  const floorBlock = from.block - BigInt(Math.ceil(neededBlocks / pageBlocks) * pageBlocks);
  return floorBlock <= 0n ? { floorBlock: 0n, floorExact: true } : { floorBlock, floorExact: false };
}

/** Seconds per block: from the oldest anchor to the newest block when they are far enough apart, else the configured guess. */
export function spacingSeconds(inputs: Pick<BackfillPlanInputs, "anchors" | "newest" | "blockSpacingSeconds">): number {
  const { anchors, newest, blockSpacingSeconds } = inputs;
  if (!(blockSpacingSeconds > 0)) throw new RangeError(`a chain's block spacing is positive (got ${blockSpacingSeconds} s)`);
  const oldest = anchors.oldest;
  if (oldest === undefined || newest.block - oldest.block < MIN_SPACING_SPAN_BLOCKS) return blockSpacingSeconds;
  const observed = (newest.timestamp - oldest.timestamp) / Number(newest.block - oldest.block);
  return observed > 0 ? observed : blockSpacingSeconds;
}

/** The newest page of `missing` (newest first), at most `maxBlocks` long, ending at the top of its newest range. */
export function newestPage(missing: readonly BlockRange[], maxBlocks: number): BlockRange | undefined {
  const range = missing[0];
  if (range === undefined) return undefined;
  const from = range.toBlock - BigInt(maxBlocks) + 1n;
  return { fromBlock: from > range.fromBlock ? from : range.fromBlock, toBlock: range.toBlock };
}

/** Every page of `missing`, newest first: what a backfill fetches if nothing changes the plan on the way. */
export function* pagesOf(missing: readonly BlockRange[], pageBlocks: number): Generator<BlockRange> {
  for (const range of missing) {
    for (let to = range.toBlock; to >= range.fromBlock; to -= BigInt(pageBlocks)) {
      const from = to - BigInt(pageBlocks) + 1n;
      yield { fromBlock: from > range.fromBlock ? from : range.fromBlock, toBlock: to };
    }
  }
}
