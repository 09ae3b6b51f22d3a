// What the tests of the fee suggestions (shared/core/fees and shared/wire) start from.
import { blockTipsOf, type BlockTips } from "../../shared/core/fees/recentTips.ts";
import type { SuggestionInput } from "../../shared/core/fees/suggestedGasFees.ts";

export const GWEI = 1_000_000_000n;

/** One block's tips: [min, p10, max]. */
export const tips = (block: number, minWei: bigint, p10Wei: bigint, maxWei: bigint): BlockTips => blockTipsOf(BigInt(block), [minWei, p10Wei, maxWei]);

/** A chain at 8 Gwei whose window went from 5 to 20 Gwei, 12 s blocks, no tips: each test overrides what it looks at. */
export function suggestionInput(overrides: Partial<SuggestionInput> = {}): SuggestionInput {
  return {
    estimatedBaseFeeWei: 8n * GWEI,
    recentTips: [],
    recentBaseFeesWei: [8n * GWEI],
    windowMinWei: 5n * GWEI,
    windowMaxWei: 20n * GWEI,
    networkCongestion: 0.25,
    blockTimeMs: 12_000,
    ...overrides,
  };
}
