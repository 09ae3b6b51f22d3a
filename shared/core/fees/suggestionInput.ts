import type { FeeSnapshot } from "./feeSnapshot.ts";
import { RECENT_BLOCKS, suggestGasFees, type FeeLevel, type SuggestionInput } from "./suggestedGasFees.ts";

/** What the estimation (suggestedGasFees) reads from a snapshot. */
export function suggestionInputOf(snapshot: FeeSnapshot): SuggestionInput {
  return {
    estimatedBaseFeeWei: snapshot.currentBaseFeeWei,
    recentTips: snapshot.recentTips,
    recentBaseFeesWei: snapshot.historyWei.slice(-RECENT_BLOCKS),
    windowMinWei: snapshot.minWei,
    windowMaxWei: snapshot.maxWei,
    networkCongestion: snapshot.networkCongestion,
    blockTimeMs: snapshot.blockTimeMs,
  };
}

/** Each tier's tip as suggestedGasFees gives it for the snapshot (what /costs and money alerts add to the base fee). */
export function tierTipsOf(snapshot: FeeSnapshot): Record<FeeLevel, bigint> {
  const suggestion = suggestGasFees(suggestionInputOf(snapshot));
  return { low: suggestion.low.maxPriorityFeePerGasWei, medium: suggestion.medium.maxPriorityFeePerGasWei, high: suggestion.high.maxPriorityFeePerGasWei };
}
