import { useCallback, useState } from "react";
import { type ChartRangeId, isChartRangeId } from "./chartRange.ts";

const STORAGE_KEY = "gasfees.chartRange";

/** The chart's range, the same for every chain, kept for the next visit (localStorage: it is no secret). */
export function useChartRange(): [ChartRangeId, (range: ChartRangeId) => void] {
  const [range, setRange] = useState<ChartRangeId>(() => {
    const stored = readStored();
    return isChartRangeId(stored) ? stored : "blocks";
  });
  const choose = useCallback((next: ChartRangeId) => {
    setRange(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage refused (a private window's quota, say): the choice lasts as long as the page.
    }
  }, []);
  return [range, choose];
}

function readStored(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
