import { feeRoute } from "./feeRoute.ts";

/** `GET /networks/{chainId}/suggestedGasFees`: the hosted Gas API's estimate (beyond the specification). */
export const SUGGESTED_GAS_FEES_ROUTE = feeRoute({
  name: "suggestedGasFees",
  summary:
    "The hosted Gas API's suggested gas fees: low, medium and high tips and max fees from recent blocks' eth_feeHistory rewards, with wait estimates, the next base fee, congestion, ranges and trends.",
  schema: "SuggestedGasFees",
  windowed: true,
});
