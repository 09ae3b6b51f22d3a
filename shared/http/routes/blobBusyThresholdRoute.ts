import { feeRoute } from "./feeRoute.ts";

/** `GET /networks/{chainId}/blobBusyThreshold`: the base-fee route's twin for the blob base fee (EIP-4844). */
export const BLOB_BUSY_THRESHOLD_ROUTE = feeRoute({
  name: "blobBusyThreshold",
  summary:
    "The blob base fee in Gwei that 90% of the window's blob base fees are at or below (nearest rank). 422 NO_BLOB_FEE on a chain without blobs, or a rollup (no blob market of its own).",
  schema: "BlobBusyThreshold",
  windowed: true,
  blob: true,
});
