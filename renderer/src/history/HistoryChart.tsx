import { memo, useMemo } from "react";
import type { BaseFeeStatsBucket } from "../../../shared/wire/baseFeeStats.ts";
import type { HistoryStatus } from "../../../shared/wire/networkStatus.ts";
import type { ChartCost } from "../costs/chartCost.ts";
import type { TimeRange } from "./chartRange.ts";
import { costBuckets } from "../costs/costSeries.ts";
import { blockNumber, clockTime } from "../text/format.ts";
import { StatsChart } from "./StatsChart.tsx";
import type { StatsStore } from "./statsStore.ts";
import { useBaseFeeStats } from "./useBaseFeeStats.ts";
import { usePriceHistory } from "./usePriceHistory.ts";
import { moneyUnit } from "../text/valueUnit.ts";
import { durationWords, heldByAnswer, lastSpanWords, windowWords } from "../text/windowWords.ts";

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
  /** Set: the range in one action's cost (money), from the price points held; undefined: the base fee in Gwei. */
  readonly cost?: ChartCost | undefined;
}

const GROUPED = new Intl.NumberFormat("en-US");

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
  cost,
}: Props) {
  const request = { kind: "window", window: range.window, buckets: range.buckets, ...(fee === "blob" ? { fee } : {}) } as const;
  const entry = useBaseFeeStats(store, chainId, request, range.refreshMs, enabled, {
    newestBlock: history.newestBlock,
    everyMs: FOLLOW_EVERY_MS,
  });
  const gweiBuckets = entry.buckets !== undefined && entry.buckets.length > 0 ? entry.buckets : undefined;
  const prices = usePriceHistory(cost, gweiBuckets?.[0]?.start, enabled);
  const costed = useMemo(
    () => (cost === undefined || gweiBuckets === undefined || prices.points === undefined ? undefined : costBuckets(gweiBuckets, cost.gas, prices.points)),
    [cost, gweiBuckets, prices.points],
  );
  const unit = useMemo(() => (cost === undefined ? undefined : moneyUnit(cost.currency)), [cost]);
  const buckets: readonly BaseFeeStatsBucket[] | undefined = cost === undefined ? gweiBuckets : costed?.buckets;
  const noPriceHeld = cost !== undefined && prices.points !== undefined && prices.points.length === 0;
  const error = entry.error ?? (cost === undefined ? undefined : prices.error);
  const state = noPriceHeld ? "no-price" : buckets !== undefined ? "ready" : error !== undefined ? "error" : "loading";
  const held = gweiBuckets?.filter((bucket) => bucket.blocks > 0) ?? [];
  const firstBlock = held[0]?.fromBlock;
  const lastBlock = held[held.length - 1]?.toBlock;
  return (
    <>
      <div
        className="chart-frame"
        data-testid={`${testIdPrefix}stats-chart`}
        data-range={range.id}
        data-state={state}
        data-unit={unit?.name ?? "Gwei"}
        data-buckets={buckets?.length ?? 0}
      >
        {buckets !== undefined && !noPriceHeld ? (
          <StatsChart
            buckets={buckets}
            baseFeePercentile={baseFeePercentile}
            busyThreshold={busyThreshold}
            windowName={windowName}
            currentBaseFee={currentBaseFee}
            heldFromSeconds={history.oldestTime}
            backfilling={history.backfill.running}
            unit={unit}
          />
        ) : (
          <div className="chart-placeholder" data-testid={`${testIdPrefix}stats-placeholder`}>
            {noPriceHeld
              ? `No ${cost.currency} price of this chain's gas token is held for the last ${windowWords(range.window)}, so its costs cannot be drawn. Choose "base fee (Gwei)" above to see the base fee.`
              : state === "error"
                ? `Could not load the last ${windowWords(range.window)}: ${error}. Retrying by itself.`
                : `Loading the last ${windowWords(range.window)}…`}
          </div>
        )}
      </div>
      <p className="chart-note" data-testid={`${testIdPrefix}stats-caption`} data-from-block={firstBlock ?? ""} data-to-block={lastBlock ?? ""}>
        {cost === undefined
          ? `${fee === "blob" ? "Blob base fee" : "Base fee"} in Gwei over ${lastSpanWords(range.windowSeconds, heldByAnswer(entry.heldFromSeconds, history))}, in ${range.buckets} buckets of ${durationWords(range.windowSeconds / range.buckets)}`
          : `What one ${cost.actionName} (${GROUPED.format(cost.gas)} gas) cost in ${cost.currency} over ${lastSpanWords(range.windowSeconds, heldByAnswer(entry.heldFromSeconds, history))}, in ${range.buckets} buckets of ${durationWords(range.windowSeconds / range.buckets)}: gas × each bucket's base fee × the gas token's price at that time (the Chainlink rounds held), without the tip or a rollup's L1 fee (see "What it costs now" for those)`}
        {firstBlock !== undefined && lastBlock !== undefined ? ` (blocks ${blockNumber(firstBlock)} to ${blockNumber(lastBlock)})` : ""}
        {". A bucket without blocks held is left empty."}
        {costed !== undefined && costed.unpriced > 0
          ? ` ${costed.unpriced} bucket${costed.unpriced === 1 ? "" : "s"} before the oldest price held ${costed.unpriced === 1 ? "is" : "are"} left empty too.`
          : ""}
        {entry.error !== undefined && buckets !== undefined && entry.fetchedAt !== undefined ? (
          <span className="chart-note-error" data-testid={`${testIdPrefix}stats-stale`}>
            {` Could not refresh (${entry.error}): showing the answer of ${clockTime(entry.fetchedAt)}.`}
          </span>
        ) : null}
      </p>
    </>
  );
});
