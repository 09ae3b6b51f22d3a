import { HISTORY_BLOCKS } from "../../core/fees/historyLength.ts";
import { feeRoute } from "./feeRoute.ts";

/** `GET /networks/{chainId}/blobBaseFeeHistory`: the newest blocks' blob base fees (no X-Stats-* headers). */
export const BLOB_BASE_FEE_HISTORY_ROUTE = feeRoute({
  name: "blobBaseFeeHistory",
  summary: `The blob base fees (EIP-4844) of the newest ${HISTORY_BLOCKS} blocks in Gwei, oldest first. 422 NO_BLOB_FEE on a chain without blobs, or a rollup (no blob market of its own).`,
  schema: "BlobBaseFeeHistory",
  windowed: false,
  blob: true,
});
