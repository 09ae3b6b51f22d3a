import { feeRoute } from "./feeRoute.ts";

/** `GET /networks/{chainId}/baseFeePercentile`. */
export const BASE_FEE_PERCENTILE_ROUTE = feeRoute({
  name: "baseFeePercentile",
  summary: "The 50th-percentile base fee in Gwei (nearest rank).",
  schema: "BaseFeePercentile",
  windowed: true,
});
