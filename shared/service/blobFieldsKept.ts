// What of a write's blob fields a chain's record keeps: all of them on a chain with a blob market of its own, none on a
// rollup (CONTRACT.md, "Blob fees": its endpoints' blob fields are no market, whatever they carry).
import type { HistoryWrite } from "../core/history/chainHistory.ts";

/** `write` without its blob base fees and blob gas used ratios (the same object when it has none). */
export function withoutBlobFields<T extends HistoryWrite>(write: T): T {
  if (write.blobBaseFeesWei === undefined && write.blobGasUsedRatios === undefined) return write;
  const { blobBaseFeesWei: _fees, blobGasUsedRatios: _ratios, ...rest } = write;
  return rest as T;
}
