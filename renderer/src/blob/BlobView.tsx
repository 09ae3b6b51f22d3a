import { memo, useMemo } from "react";
import { knownBlobSchedule } from "../../../shared/core/fees/blobFeeRule.ts";
import { shortGwei } from "../../../shared/core/text/shortGwei.ts";
import type { NetworkStatus } from "../../../shared/wire/networkStatus.ts";
import "./blob.css";
import { blobUseOf, type BlobUse, blobUseWords } from "./blobUse.ts";
import type { FeePoint } from "../live/chainData.ts";
import { ChartLegend } from "../chart/ChartLegend.tsx";
import type { ChartRange, ChartRangeId } from "../history/chartRange.ts";
import { RangeSelector } from "../history/RangeSelector.tsx";
import "../chart/chartToolbar.css";
import { FeeChart, type FloorPoint } from "../live/FeeChart.tsx";
import { blockNumber } from "../text/format.ts";
import { HistoryChart } from "../history/HistoryChart.tsx";
import type { StatsStore } from "../history/statsStore.ts";

interface Props {
  readonly status: NetworkStatus;
  readonly points: readonly FeePoint[];
  readonly range: ChartRange;
  readonly onRange: (range: ChartRangeId) => void;
  /** Why the time ranges cannot be drawn, or undefined when they can. */
  readonly timeRangesUnavailable: string | undefined;
  readonly stats: StatsStore;
  readonly askHistory: boolean;
  readonly windowName: string;
  /** Whether the page is cut off from the service (every live indicator then says unknown). */
  readonly offline: boolean;
}

const NO_ALERT_LINES: readonly never[] = [];

/**
 * The blob market of a chain with blob fees (EIP-4844): its own busy badge and cards, the blob base fee per block
 * against the window's blob p50 and blob busy threshold with EIP-7918's floor (a sixteenth of each block's base fee),
 * or the 1 h / 24 h / 7 d buckets of baseFeeStats?fee=blob, and each block's blob use against the fork's target.
 */
export const BlobView = memo(function BlobView({ status, points, range, onRange, timeRangesUnavailable, stats, askHistory, windowName, offline }: Props) {
  const { blobBaseFee, blobBaseFeePercentile, blobBusyThreshold } = status;
  const blobPoints = useMemo(
    () =>
      points.flatMap((point): FeePoint[] => (point.blobExact == null ? [] : [{ block: point.block, gwei: Number(point.blobExact), exact: point.blobExact }])),
    [points],
  );
  const floor = useMemo(
    () => points.flatMap((point): FloorPoint[] => (point.blobExact == null ? [] : [{ block: point.block, gwei: point.gwei / 16 }])),
    [points],
  );
  // The fork's schedule as the service reports it (the endpoint's eth_config, else the chain's known one).
  const schedule = status.blobSchedule ?? knownBlobSchedule(status.chainId);
  const use = useMemo(() => blobUseOf(points, schedule), [points, schedule]);
  const useWords = blobUseWords(use.uses);
  if (blobBaseFee === null || blobBaseFeePercentile === null || blobBusyThreshold === null) return null;
  const state = offline ? "unknown" : status.blobBusy ? "busy" : "normal";
  const newest = blobPoints[blobPoints.length - 1];
  return (
    <section className="blob-view" aria-labelledby="blob-title" data-testid="blob-view">
      <div className="blob-head">
        <h3 id="blob-title">Blob fees</h3>
        <span className={`congestion congestion-${state}`} data-testid="blob-congestion" data-state={state}>
          {state === "busy" ? "Blobs busy" : state === "normal" ? "Blobs normal" : "Unknown"}
          <span className="congestion-why">
            {state === "busy"
              ? "next blob base fee above the blob busy threshold"
              : state === "normal"
                ? "next blob base fee at or below the blob busy threshold"
                : "the service is not answering"}
          </span>
        </span>
      </div>
      <div className="cards">
        <BlobCard testId="next-blob-base-fee" label="Next blob base fee" exact={blobBaseFee} sub="per blob gas" />
        <BlobCard testId="blob-base-fee-percentile" label="Blob 50th percentile" exact={blobBaseFeePercentile} sub={`p50 over ${windowName}`} />
        <BlobCard testId="blob-busy-threshold" label="Blob busy threshold" exact={blobBusyThreshold} sub={`p90 over ${windowName}`} />
        <div className="card">
          <div className="card-label" title={`Blob gas used against the target of ${schedule.target} blobs a block (at most ${schedule.max})`}>
            Blob use, newest block
          </div>
          <div className="card-value" data-testid="blob-use-newest" title={useWords.newestBlock}>
            {useWords.newest}
            <span className="unit"> of target</span>
          </div>
          <span className="card-sub" data-testid="blob-use-mean" data-value={useWords.mean}>
            {useWords.meanWords}
          </span>
        </div>
      </div>
      <div className="chart-toolbar">
        <RangeSelector
          selected={range.id}
          timeRangesUnavailable={timeRangesUnavailable}
          onSelect={onRange}
          history={status.history}
          label="Blob chart range"
          testIdPrefix="blob-"
        />
        <ChartLegend
          kind={range.kind === "blocks" ? "blocks" : "bands"}
          baseFeePercentile={blobBaseFeePercentile}
          busyThreshold={blobBusyThreshold}
          windowName={windowName}
          alertLines={0}
          series="blob"
        />
      </div>
      {range.kind === "blocks" ? (
        newest === undefined ? null : (
          <>
            <div className="chart-frame" data-testid="blob-fee-chart" aria-label={`Blob base fee of the newest ${blobPoints.length} blocks, in Gwei`}>
              <FeeChart
                points={blobPoints}
                baseFeePercentile={blobBaseFeePercentile}
                busyThreshold={blobBusyThreshold}
                windowName={windowName}
                alertLines={NO_ALERT_LINES}
                floor={floor}
              />
            </div>
            <p className="chart-note">
              Blob base fee in Gwei (per blob gas; a blob is 131,072) of blocks {blockNumber(blobPoints[0]!.block)} to {blockNumber(newest.block)}. Dashed: the
              blob 50th percentile and busy threshold over {windowName}. Dotted: EIP-7918&apos;s floor, a sixteenth of each block&apos;s base fee, below which
              the blob base fee only rises.
            </p>
          </>
        )
      ) : (
        <HistoryChart
          store={stats}
          chainId={status.chainId}
          range={range}
          enabled={askHistory}
          baseFeePercentile={blobBaseFeePercentile}
          busyThreshold={blobBusyThreshold}
          windowName={windowName}
          currentBaseFee={blobBaseFee}
          history={status.history}
          fee="blob"
          testIdPrefix="blob-"
        />
      )}
      <BlobUseStrip uses={use.uses} maxOfTarget={use.maxOfTarget} />
    </section>
  );
});

function BlobCard({ testId, label, exact, sub }: { testId: string; label: string; exact: string; sub: string }) {
  return (
    <div className="card">
      <div className="card-label">{label}</div>
      <div className="card-value" data-testid={testId} data-value={exact} title={`${exact} Gwei`}>
        {shortGwei(exact)}
        <span className="unit"> Gwei</span>
      </div>
      <span className="card-sub">{sub}</span>
    </div>
  );
}

/** Each block's blob use as a bar, the target as a dashed line at 100%; a block above the target is drawn warm. */
function BlobUseStrip({ uses, maxOfTarget }: { uses: readonly BlobUse[]; maxOfTarget: number }) {
  if (uses.length === 0) return null;
  const width = 1000;
  const height = 56;
  const barWidth = width / uses.length;
  const yOf = (ofTarget: number) => height - (ofTarget / maxOfTarget) * height;
  return (
    <div className="blob-use" data-testid="blob-use" data-blocks={uses.length}>
      <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img" aria-label="Blob use per block against the target">
        <rect className="blob-use-frame" x={0} y={0} width={width} height={height} />
        {uses.map((use, index) => (
          <rect
            key={use.block}
            className={`blob-use-bar${use.ofTarget > 1 ? " over" : ""}`}
            x={index * barWidth}
            y={yOf(use.ofTarget)}
            width={Math.max(barWidth - 0.5, 0.5)}
            height={height - yOf(use.ofTarget)}
          />
        ))}
        <line className="blob-use-target" data-testid="blob-use-target" x1={0} x2={width} y1={yOf(1)} y2={yOf(1)} vectorEffect="non-scaling-stroke" />
      </svg>
      <p className="chart-note">
        Blob use of the newest {uses.length} blocks, one bar per block, against the target (dashed); the top is the maximum ({Math.round(maxOfTarget * 100)}% of
        target). Above the target the blob base fee rises, below it falls.
      </p>
    </div>
  );
}
