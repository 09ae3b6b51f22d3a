// A range's or the heatmap's figures in money: which action, in which currency, and where the price points come from.
import type { PriceHistory } from "../../../shared/wire/costs.ts";

export interface ChartCost {
  readonly actionName: string;
  /** The action's gas, as /costs gives it. */
  readonly gas: bigint;
  readonly currency: string;
  /** GET /networks/{chainId}/priceHistory from `fromSeconds` up to now. */
  readonly fetchPrices: (fromSeconds: number, signal: AbortSignal) => Promise<PriceHistory>;
}
