import { HISTORY_BLOCKS } from "../../core/fees/historyLength.ts";
import { feeRoute } from "./feeRoute.ts";

/** `GET /networks/{chainId}/baseFeeHistory`: the newest blocks' fees, not the statistics window (no X-Stats-* headers). */
export const BASE_FEE_HISTORY_ROUTE = feeRoute({
  name: "baseFeeHistory",
  summary: `The base fees of the newest ${HISTORY_BLOCKS} blocks in Gwei, oldest first.`,
  schema: "BaseFeeHistory",
  windowed: false,
});
