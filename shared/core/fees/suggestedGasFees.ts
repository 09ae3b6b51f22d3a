import type { BlockTips } from "./recentTips.ts";
import { nearestRank } from "./percentile.ts";

/** Blocks the tips, the priority-fee ranges and both trends are read from: the newest 20 (4 minutes of Ethereum). */
export const RECENT_BLOCKS = 20;

export type FeeLevel = "low" | "medium" | "high";

/** Which way a series went, newer half against older half. */
export const TRENDS = ["up", "down", "level"] as const;
export type Trend = (typeof TRENDS)[number];

/**
 * How each level is made (see suggestGasFees):
 * - `blockShare`: the level's tip is the nearest-rank percentile, across the recent blocks, of each block's
 *   10th-percentile tip: a tip at least that high would have been in the top 90% of the gas of this share of blocks.
 * - `maxWaitBlocks`: taking each block as an independent chance of `blockShare`, the blocks within which inclusion
 *   is 90% likely: the smallest n with (1 - blockShare)^n <= 0.1 (50% -> 4, 75% -> 2, 95% -> 1).
 * - `surgeBlocks`: the max fee covers the base fee rising at EIP-1559's fastest rate (12.5% a block) for this many
 *   full blocks, so that a higher level stays includable through a longer surge.
 */
export const LEVELS: Readonly<Record<FeeLevel, { blockSharePercent: number; maxWaitBlocks: number; surgeBlocks: number }>> = {
  low: { blockSharePercent: 50, maxWaitBlocks: 4, surgeBlocks: 1 },
  medium: { blockSharePercent: 75, maxWaitBlocks: 2, surgeBlocks: 2 },
  high: { blockSharePercent: 95, maxWaitBlocks: 1, surgeBlocks: 3 },
};

export interface SuggestionInput {
  /** The next block's base fee (the snapshot's current base fee). */
  readonly estimatedBaseFeeWei: bigint;
  /** Tips of recent blocks, oldest first (only the newest RECENT_BLOCKS block numbers are read). */
  readonly recentTips: readonly BlockTips[];
  /** Base fees of the newest blocks, oldest first (only the newest RECENT_BLOCKS are read). */
  readonly recentBaseFeesWei: readonly bigint[];
  /** The statistics window's lowest and highest base fee. */
  readonly windowMinWei: bigint;
  readonly windowMaxWei: bigint;
  /** 0..1, see networkCongestionOf. */
  readonly networkCongestion: number;
  readonly blockTimeMs: number;
}

export interface LevelSuggestionWei {
  readonly maxPriorityFeePerGasWei: bigint;
  readonly maxFeePerGasWei: bigint;
  readonly minWaitTimeEstimateMs: number;
  readonly maxWaitTimeEstimateMs: number;
}

export interface GasFeeSuggestionWei {
  readonly low: LevelSuggestionWei;
  readonly medium: LevelSuggestionWei;
  readonly high: LevelSuggestionWei;
  readonly estimatedBaseFeeWei: bigint;
  readonly networkCongestion: number;
  readonly latestPriorityFeeRangeWei: readonly [bigint, bigint];
  readonly historicalPriorityFeeRangeWei: readonly [bigint, bigint];
  readonly historicalBaseFeeRangeWei: readonly [bigint, bigint];
  readonly priorityFeeTrend: Trend;
  readonly baseFeeTrend: Trend;
}

/** The hosted Gas API's `suggestedGasFees` body: fees as Gwei strings, waits in ms. */

/**
 * Suggested tips and max fees for three levels from the reward percentiles of recent blocks (all on bigint wei).
 *
 * - Tip of a level: the nearest-rank percentile `blockSharePercent` (low 50, medium 75, high 95) of the recent
 *   blocks' 10th-percentile tips. An empty block counts with a tip of 0 (any tip would have been included).
 * - Max fee: the next block's base fee grown by 9/8 per surge block (low 1, medium 2, high 3), rounded up, plus the tip.
 * - Waits: from one block time (the next block) to `maxWaitBlocks` block times.
 * - Ranges: the newest block's [smallest, largest] tip; the recent blocks' [smallest, largest] tip; the statistics
 *   window's [lowest, highest] base fee.
 * - Trends: the median of the newer half of the recent blocks against the median of the older half (the 10th-
 *   percentile tips, and the base fees): higher is "up", lower "down", equal "level".
 * Without tips (no reward data yet) every tip is 0.
 */
export function suggestGasFees(input: SuggestionInput): GasFeeSuggestionWei {
  if (input.estimatedBaseFeeWei < 0n) throw new RangeError(`a base fee cannot be negative (got ${input.estimatedBaseFeeWei} wei)`);
  if (!(input.blockTimeMs > 0)) throw new RangeError(`the block time must be positive (got ${input.blockTimeMs} ms)`);
  const tips = recentOf(input.recentTips);
  const sortedP10 = tips.map((row) => row.p10Wei).sort(ascending);
  const level = (name: FeeLevel): LevelSuggestionWei => {
    const { blockSharePercent, maxWaitBlocks, surgeBlocks } = LEVELS[name];
    const tipWei = sortedP10.length === 0 ? 0n : nearestRank(sortedP10, blockSharePercent);
    const growth = 9n ** BigInt(surgeBlocks);
    const scale = 8n ** BigInt(surgeBlocks);
    const surgedBaseFeeWei = (input.estimatedBaseFeeWei * growth + scale - 1n) / scale;
    return {
      maxPriorityFeePerGasWei: tipWei,
      maxFeePerGasWei: surgedBaseFeeWei + tipWei,
      minWaitTimeEstimateMs: Math.round(input.blockTimeMs),
      maxWaitTimeEstimateMs: Math.round(input.blockTimeMs * maxWaitBlocks),
    };
  };
  const newest = tips[tips.length - 1];
  const recentBaseFees = input.recentBaseFeesWei.slice(-RECENT_BLOCKS);
  return {
    low: level("low"),
    medium: level("medium"),
    high: level("high"),
    estimatedBaseFeeWei: input.estimatedBaseFeeWei,
    networkCongestion: input.networkCongestion,
    latestPriorityFeeRangeWei: newest ? [newest.minWei, newest.maxWei] : [0n, 0n],
    historicalPriorityFeeRangeWei: tips.length === 0 ? [0n, 0n] : [min(tips.map((row) => row.minWei)), max(tips.map((row) => row.maxWei))],
    historicalBaseFeeRangeWei: [input.windowMinWei, input.windowMaxWei],
    priorityFeeTrend: trendOf(tips.map((row) => row.p10Wei)),
    baseFeeTrend: trendOf(recentBaseFees),
  };
}

/** The median (nearest rank) of the newer half against that of the older half; fewer than two values: level. */
export function trendOf(valuesOldestFirst: readonly bigint[]): Trend {
  if (valuesOldestFirst.length < 2) return "level";
  const half = Math.floor(valuesOldestFirst.length / 2);
  const older = nearestRank([...valuesOldestFirst.slice(0, half)].sort(ascending), 50);
  const newer = nearestRank([...valuesOldestFirst.slice(valuesOldestFirst.length - half)].sort(ascending), 50);
  return newer > older ? "up" : newer < older ? "down" : "level";
}

/** The rows of the newest RECENT_BLOCKS block numbers. */
function recentOf(tips: readonly BlockTips[]): readonly BlockTips[] {
  const newest = tips[tips.length - 1];
  if (newest === undefined) return [];
  const floor = newest.block - BigInt(RECENT_BLOCKS) + 1n;
  return tips.filter((row) => row.block >= floor);
}

const ascending = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
const min = (values: readonly bigint[]) => values.reduce((a, b) => (b < a ? b : a));
const max = (values: readonly bigint[]) => values.reduce((a, b) => (b > a ? b : a));
