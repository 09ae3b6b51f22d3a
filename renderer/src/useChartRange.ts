import { type ChartRangeId, isChartRangeId } from "./chartRange.ts";
import { useStoredChoice } from "./useStoredChoice.ts";

const STORAGE_KEY = "gasfees.chartRange";

/** The chart's range, the same for every chain, kept for the next visit. */
export function useChartRange(): [ChartRangeId, (range: ChartRangeId) => void] {
  return useStoredChoice<ChartRangeId>(STORAGE_KEY, (stored) => (isChartRangeId(stored) ? stored : "blocks"));
}
