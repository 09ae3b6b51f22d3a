import { type ChartRangeId, isChartRangeId } from "./chartRange.ts";
import { useStoredChoice } from "../chart/useStoredChoice.ts";

/** Where the base fee chart's range is kept, and the blob chart's, each its own. */
export const BASE_FEE_RANGE_KEY = "gasfees.chartRange";
export const BLOB_RANGE_KEY = "gasfees.blobChartRange";

/** A chart's range, the same for every chain, kept for the next visit under `storageKey`. */
export function useChartRange(storageKey: string = BASE_FEE_RANGE_KEY): [ChartRangeId, (range: ChartRangeId) => void] {
  return useStoredChoice<ChartRangeId>(storageKey, (stored) => (isChartRangeId(stored) ? stored : "blocks"));
}
