import { feeRoute } from "./feeRoute.ts";

/** `GET /networks/{chainId}/blobBaseFeePercentile`: the base-fee route's twin for the blob base fee (EIP-4844). */
export const BLOB_BASE_FEE_PERCENTILE_ROUTE = feeRoute({
  name: "blobBaseFeePercentile",
  summary:
    "The 50th-percentile blob base fee in Gwei over the statistics window (nearest rank). 422 NO_BLOB_FEE on a chain without blobs, or a rollup (no blob market of its own).",
  schema: "BlobBaseFeePercentile",
  windowed: true,
  blob: true,
});
