// The estimator that `npm run backtest` and the service's outlook run: one place to choose it.
import { createLowestFeeEstimator } from "./lowestFeeEstimator.ts";
import type { OutlookEstimator } from "./outlookEstimator.ts";

export function createDefaultEstimator(): OutlookEstimator {
  return createLowestFeeEstimator();
}
