import type { BlobFeeSnapshot, FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import { suggestGasFees } from "../core/fees/suggestedGasFees.ts";
import { suggestionInputOf } from "../core/fees/suggestionInput.ts";
import { suggestedGasFeesBody } from "../wire/suggestedGasFeesBody.ts";
import type { BaseFeePercentile, BlobBaseFeePercentile, BlobBusyThreshold, BusyThreshold } from "../wire/apiBodies.ts";
import type { HeaderList } from "./headerList.ts";
import { type PreparedBody, preparedJson } from "./preparedBody.ts";

/** What the fee endpoints answer for one snapshot: their bodies in the contract's exact shapes, and their headers. */
export interface PreparedAnswers {
  readonly busyThreshold: PreparedBody;
  readonly baseFeePercentile: PreparedBody;
  readonly baseFeeHistory: PreparedBody;
  /** The hosted Gas API's suggestedGasFees (beyond the specification). */
  readonly suggestedGasFees: PreparedBody;
  /** `X-Block-Number`: the newest block in the window. */
  readonly blockNumber: string;
  /** `X-Stats-Blocks`, `X-Stats-From-Block`, `X-Stats-To-Block`: the statistics window the answers were computed over. */
  readonly statsHeaders: HeaderList;
  /** The blob endpoints' answers; undefined for a chain without blob base fees (they answer NO_BLOB_FEE). */
  readonly blob: PreparedBlobAnswers | undefined;
}

/** What the blob fee endpoints answer for one snapshot, made as the base fee's are. */
export interface PreparedBlobAnswers {
  readonly blobBusyThreshold: PreparedBody;
  readonly blobBaseFeePercentile: PreparedBody;
  readonly blobBaseFeeHistory: PreparedBody;
  /** The X-Stats-* headers of the window's blocks that have a blob base fee. */
  readonly statsHeaders: HeaderList;
}

/** The fee endpoints, each answering one PreparedBody of a snapshot (and named by it: `/networks/{chainId}/<name>`). */
export type FeeAnswerName = Exclude<keyof PreparedAnswers, "blockNumber" | "statsHeaders" | "blob"> | Exclude<keyof PreparedBlobAnswers, "statsHeaders">;

/** Serialises every answer of a snapshot at once, so that the requests that follow only authenticate and write. */
export function prepareAnswers(snapshot: FeeSnapshot): PreparedAnswers {
  const busyThreshold: BusyThreshold = { busyThreshold: toGweiString(snapshot.busyThresholdWei) };
  const baseFeePercentile: BaseFeePercentile = { baseFeePercentile: toGweiString(snapshot.baseFeePercentileWei) };
  return Object.freeze({
    busyThreshold: preparedJson(busyThreshold),
    baseFeePercentile: preparedJson(baseFeePercentile),
    baseFeeHistory: preparedJson(snapshot.historyWei.map(toGweiString)),
    suggestedGasFees: preparedJson(suggestedGasFeesBody(suggestGasFees(suggestionInputOf(snapshot)))),
    blockNumber: snapshot.newestBlock.toString(),
    statsHeaders: statsHeadersOf(snapshot),
    blob: snapshot.blob && prepareBlobAnswers(snapshot.blob),
  });
}

function prepareBlobAnswers(blob: BlobFeeSnapshot): PreparedBlobAnswers {
  const blobBusyThreshold: BlobBusyThreshold = { blobBusyThreshold: toGweiString(blob.busyThresholdWei) };
  const blobBaseFeePercentile: BlobBaseFeePercentile = { blobBaseFeePercentile: toGweiString(blob.percentileWei) };
  return Object.freeze({
    blobBusyThreshold: preparedJson(blobBusyThreshold),
    blobBaseFeePercentile: preparedJson(blobBaseFeePercentile),
    blobBaseFeeHistory: preparedJson(blob.historyWei.map(toGweiString)),
    statsHeaders: statsHeadersOf(blob),
  });
}

/** `X-Stats-Blocks`, `X-Stats-From-Block`, `X-Stats-To-Block` of a window. */
function statsHeadersOf(window: Pick<FeeSnapshot, "statsBlocks" | "statsFromBlock" | "statsToBlock">): HeaderList {
  return Object.freeze([
    "X-Stats-Blocks",
    String(window.statsBlocks),
    "X-Stats-From-Block",
    window.statsFromBlock.toString(),
    "X-Stats-To-Block",
    window.statsToBlock.toString(),
  ]);
}
