import { toGweiString } from "../core/fees/gwei.ts";
import type { GasFeeSuggestionWei, LevelSuggestionWei } from "../core/fees/suggestedGasFees.ts";
import type { LevelBody, SuggestedGasFeesBody } from "./apiBodies.ts";

/** The body of `GET /networks/{chainId}/suggestedGasFees`, in the hosted service's field order. */
export function suggestedGasFeesBody(suggestion: GasFeeSuggestionWei): SuggestedGasFeesBody {
  const level = (wei: LevelSuggestionWei): LevelBody => ({
    suggestedMaxPriorityFeePerGas: toGweiString(wei.maxPriorityFeePerGasWei),
    suggestedMaxFeePerGas: toGweiString(wei.maxFeePerGasWei),
    minWaitTimeEstimate: wei.minWaitTimeEstimateMs,
    maxWaitTimeEstimate: wei.maxWaitTimeEstimateMs,
  });
  const range = ([low, high]: readonly [bigint, bigint]): [string, string] => [toGweiString(low), toGweiString(high)];
  return {
    low: level(suggestion.low),
    medium: level(suggestion.medium),
    high: level(suggestion.high),
    estimatedBaseFee: toGweiString(suggestion.estimatedBaseFeeWei),
    networkCongestion: suggestion.networkCongestion,
    latestPriorityFeeRange: range(suggestion.latestPriorityFeeRangeWei),
    historicalPriorityFeeRange: range(suggestion.historicalPriorityFeeRangeWei),
    historicalBaseFeeRange: range(suggestion.historicalBaseFeeRangeWei),
    priorityFeeTrend: suggestion.priorityFeeTrend,
    baseFeeTrend: suggestion.baseFeeTrend,
  };
}
