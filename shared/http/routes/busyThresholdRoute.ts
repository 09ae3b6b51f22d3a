import { feeRoute } from "./feeRoute.ts";

/** `GET /networks/{chainId}/busyThreshold`. */
export const BUSY_THRESHOLD_ROUTE = feeRoute({
  name: "busyThreshold",
  summary: "The base fee in Gwei that 90% of the window's base fees are at or below (nearest rank).",
  schema: "BusyThreshold",
  windowed: true,
});
