// Stand-in until helper bt's branch lands (it owns this file): the estimator the service uses, behind the
// OutlookEstimator interface. A plain one: the lowest base fee within H spread evenly between the lowest of the last H
// hours observed and the current fee.
import type { HourlySummary } from "./hourlySummary.ts";
import type { ForecastMoment, LowestFeeForecast, OutlookEstimator } from "./outlookEstimator.ts";

const KEPT_HOURS = 168;

export function createDefaultEstimator(): OutlookEstimator {
  const recent: HourlySummary[] = [];
  return {
    observe(hour: HourlySummary): void {
      recent.push(hour);
      if (recent.length > KEPT_HOURS) recent.shift();
    },
    forecast(moment: ForecastMoment, withinHours: number): LowestFeeForecast {
      let lowest: bigint | undefined;
      for (const hour of recent.slice(-withinHours)) if (lowest === undefined || hour.min < lowest) lowest = hour.min;
      const low = lowest === undefined || moment.baseFee <= 0n ? 1 : Math.min(1, Number(lowest) / Number(moment.baseFee));
      return {
        quantileRatio: (q) => low + q * (1 - low),
        probabilityAtOrBelow: (ratio) => (low >= 1 ? (ratio >= 1 ? 1 : 0) : Math.min(1, Math.max(0, (ratio - low) / (1 - low)))),
      };
    },
  };
}
