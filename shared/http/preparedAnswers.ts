import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import { suggestGasFees } from "../core/fees/suggestedGasFees.ts";
import { suggestionInputOf } from "../core/fees/suggestionInput.ts";
import { suggestedGasFeesBody } from "../wire/suggestedGasFeesBody.ts";
import type { BaseFeePercentile, BusyThreshold } from "../wire/apiBodies.ts";
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
  readonly statsHeaders: Readonly<Record<string, string>>;
}

/** The fee endpoints, each answering one PreparedBody of a snapshot (and named by it: `/networks/{chainId}/<name>`). */
export type FeeAnswerName = Exclude<keyof PreparedAnswers, "blockNumber" | "statsHeaders">;

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
    statsHeaders: Object.freeze({
      "X-Stats-Blocks": String(snapshot.statsBlocks),
      "X-Stats-From-Block": snapshot.statsFromBlock.toString(),
      "X-Stats-To-Block": snapshot.statsToBlock.toString(),
    }),
  });
}
