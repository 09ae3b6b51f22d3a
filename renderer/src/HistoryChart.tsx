import { memo } from "react";
import type { HistoryStatus } from "../../shared/wire/networkStatus.ts";
import type { TimeRange } from "./chartRange.ts";
import { blockNumber, clockTime } from "./format.ts";
import { StatsChart } from "./StatsChart.tsx";
import type { StatsStore } from "./statsStore.ts";
import { useBaseFeeStats } from "./useBaseFeeStats.ts";
import { durationWords, heldByAnswer, lastSpanWords, windowWords } from "./windowWords.ts";

interface Props {
  readonly store: StatsStore;
  readonly chainId: number;
  readonly range: TimeRange;
  /** Whether to ask the service (it answers, and holds history for the chain); what is held is drawn either way. */
  readonly enabled: boolean;
  readonly baseFeePercentile: string;
  readonly busyThreshold: string;
  readonly windowName: string;
  readonly currentBaseFee: string | null;
  readonly history: HistoryStatus;
  /** "blob": the blob base fee's buckets (baseFeeStats?fee=blob); default the base fee's. */
  readonly fee?: "blob";
  /** Prefixes the test ids of its parts (two on one page: the base fee's, and the blob view's with "blob-"). */
  readonly testIdPrefix?: string;
}

/**
 * The range on screen follows the chain: asked again as new blocks arrive (at most this often), so that its buckets
 * and the blocks its caption names end at the newest block, not at one minutes old (a week of 0.25 s blocks is about
 * 30 ms of the service's time to answer).
 */
const FOLLOW_EVERY_MS = 2_000;

/** A time range of the chart: the service's buckets for it (asked again as blocks arrive), or what keeps them from showing. */
export const HistoryChart = memo(function HistoryChart({
  store,
  chainId,
  range,
  enabled,
  baseFeePercentile,
  busyThreshold,
  windowName,
  currentBaseFee,
  history,
  fee,
  testIdPrefix = "",
}: Props) {
  const request = { kind: "window", window: range.window, buckets: range.buckets, ...(fee === "blob" ? { fee } : {}) } as const;
  const entry = useBaseFeeStats(store, chainId, request, range.refreshMs, enabled, {
    newestBlock: history.newestBlock,
    everyMs: FOLLOW_EVERY_MS,
  });
  const buckets = entry.buckets !== undefined && entry.buckets.length > 0 ? entry.buckets : undefined;
  const state = buckets !== undefined ? "ready" : entry.error !== undefined ? "error" : "loading";
  const held = buckets?.filter((bucket) => bucket.blocks > 0) ?? [];
  const firstBlock = held[0]?.fromBlock;
  const lastBlock = held[held.length - 1]?.toBlock;
  return (
    <>
      <div className="chart-frame" data-testid={`${testIdPrefix}stats-chart`} data-range={range.id} data-state={state} data-buckets={buckets?.length ?? 0}>
        {buckets !== undefined ? (
          <StatsChart
            buckets={buckets}
            baseFeePercentile={baseFeePercentile}
            busyThreshold={busyThreshold}
            windowName={windowName}
            currentBaseFee={currentBaseFee}
            heldFromSeconds={history.oldestTime}
            backfilling={history.backfill.running}
          />
        ) : (
          <div className="chart-placeholder" data-testid={`${testIdPrefix}stats-placeholder`}>
            {state === "error"
              ? `Could not load the last ${windowWords(range.window)}: ${entry.error}. Retrying by itself.`
              : `Loading the last ${windowWords(range.window)}…`}
          </div>
        )}
      </div>
      <p className="chart-note" data-testid={`${testIdPrefix}stats-caption`} data-from-block={firstBlock ?? ""} data-to-block={lastBlock ?? ""}>
        {`${fee === "blob" ? "Blob base fee" : "Base fee"} in Gwei over ${lastSpanWords(range.windowSeconds, heldByAnswer(entry.heldFromSeconds, history))}, in ${range.buckets} buckets of ${durationWords(range.windowSeconds / range.buckets)}`}
        {firstBlock !== undefined && lastBlock !== undefined ? ` (blocks ${blockNumber(firstBlock)} to ${blockNumber(lastBlock)})` : ""}
        {". A bucket without blocks held is left empty."}
        {entry.error !== undefined && buckets !== undefined && entry.fetchedAt !== undefined ? (
          <span className="chart-note-error" data-testid={`${testIdPrefix}stats-stale`}>
            {` Could not refresh (${entry.error}): showing the answer of ${clockTime(entry.fetchedAt)}.`}
          </span>
        ) : null}
      </p>
    </>
  );
});
