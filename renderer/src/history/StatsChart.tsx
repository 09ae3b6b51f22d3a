import { memo, useMemo, useState } from "react";
import { CartesianGrid, DefaultZIndexes, LineChart, usePlotArea, useXAxisScale, useYAxisScale, XAxis, ZIndexLayer } from "recharts";
import type { BaseFeeStatsBucket } from "../../../shared/wire/baseFeeStats.ts";
import { bandAreaPath, bandExtent, bandLinePath, bandRuns, type BandPoint } from "../chart/bucketBands.ts";
import { CHART_MARGIN, CHART_STYLE, NOW_DOT_RADIUS_PX, TICK_MARGIN_PX, TICK_SIZE_PX } from "../chart/chartFrame.ts";
import { feeTicks } from "../chart/chartTicks.ts";
import { ChartHoverLayer } from "../chart/ChartHoverLayer.tsx";
import { feeYAxis } from "../chart/feeYAxis.tsx";
import { ChartTooltip } from "../chart/ChartTooltip.tsx";
import { blockNumber } from "../text/format.ts";
import { StatsLines } from "../chart/StatsLines.tsx";
import "./statsChart.css";
import { bucketTimeSpan } from "../text/timeSpanWords.ts";
import { timeTickLabel, timeTicks } from "../chart/timeTicks.ts";
import { GWEI_UNIT, type ValueUnit } from "../text/valueUnit.ts";

export interface StatsChartProps {
  /** The baseFeeStats answer, oldest first (at least one bucket). */
  readonly buckets: readonly BaseFeeStatsBucket[];
  /** The statistics window's lines, exact Gwei strings, and the window they are computed over in words (statsWindowWords). */
  readonly baseFeePercentile: string;
  readonly busyThreshold: string;
  readonly windowName: string;
  /** The next block's base fee, marked at the right edge; null without one. */
  readonly currentBaseFee: string | null;
  /** Unix seconds of the oldest block the service holds: before it, the chart has nothing to show (yet). */
  readonly heldFromSeconds: number | null;
  /** The service is fetching older blocks now (the span before heldFromSeconds is on its way). */
  readonly backfilling: boolean;
  /**
   * What the buckets' figures are in: Gwei (the base fee, by default), or money (costBuckets: one action's cost). In
   * money the statistics lines and the next base fee, which are Gwei of the window and of now, are not drawn.
   */
  readonly unit?: ValueUnit;
}

/**
 * The held history in time buckets: per bucket the 10th to 90th percentile shaded, the 25th to 75th darker, the
 * median as a line and the minimum to maximum faint; a bucket without blocks is a gap. With the statistics window's
 * lines as on the block chart, and the next block's base fee marked at the right edge.
 *
 * Drawn like FeeChart: recharts draws the frame (grid, y axis) and gives the scales; the bands are a few `d` strings
 * made once per answer. Memoised: a new block changes only the marker at the right edge.
 */
export const StatsChart = memo(function StatsChart({
  buckets,
  baseFeePercentile,
  busyThreshold,
  windowName,
  currentBaseFee,
  heldFromSeconds,
  backfilling,
  unit = GWEI_UNIT,
}: StatsChartProps) {
  const inGwei = unit.kind === "gwei";
  const runs = useMemo(() => bandRuns(buckets), [buckets]);
  const fromSeconds = buckets[0]!.start;
  const toSeconds = buckets[buckets.length - 1]!.end;
  const xDomain = useMemo<[number, number]>(() => [fromSeconds, toSeconds], [fromSeconds, toSeconds]);

  // The scale holds the 10th to 90th percentiles and both lines; the minimum and maximum only while they do not more
  // than double it (one spike would otherwise flatten the week): beyond, their faint band is cut at the plot's edge.
  const tickKey = useMemo(() => {
    const lines = inGwei ? [Number(baseFeePercentile), Number(busyThreshold)] : [];
    const core = bandExtent(runs, "p10", "p90") ?? (lines.length > 0 ? { low: Math.min(...lines), high: Math.max(...lines) } : { low: 0, high: 1 });
    let low = Math.min(core.low, ...lines);
    let high = Math.max(core.high, ...lines);
    const outer = bandExtent(runs, "min", "max");
    const span = high - low || high || 1;
    if (outer !== undefined && outer.high <= high + span) high = Math.max(high, outer.high);
    if (outer !== undefined && outer.low >= low - span) low = Math.min(low, outer.low);
    // Six steps: a day's bands span a wider range than 500 blocks, and five would often start the axis at 0.
    return feeTicks(low, high, 6).join(" ");
  }, [runs, baseFeePercentile, busyThreshold, inGwei]);
  const { domain, ticks } = useMemo(() => {
    const sameTicks = tickKey.split(" ").map(Number);
    return { domain: [sameTicks[0]!, sameTicks[sameTicks.length - 1]!] as [number, number], ticks: sameTicks };
  }, [tickKey]);

  const frame = useMemo(
    () => (
      <>
        <CartesianGrid vertical={false} className="chart-grid" />
        <XAxis dataKey="start" type="number" domain={xDomain} allowDataOverflow tick={false} tickLine={false} className="chart-axis" />
        {feeYAxis(domain, ticks, unit.kind === "money" ? unit.alike(ticks) : unit.short)}
      </>
    ),
    [xDomain, domain, ticks, unit],
  );
  return (
    <LineChart responsive style={CHART_STYLE} margin={CHART_MARGIN}>
      {frame}
      <UnheldSpan fromSeconds={fromSeconds} toSeconds={toSeconds} heldFromSeconds={heldFromSeconds} backfilling={backfilling} />
      <Bands runs={runs} />
      {inGwei ? (
        <StatsLines baseFeePercentile={baseFeePercentile} busyThreshold={busyThreshold} windowName={windowName} marginRightPx={CHART_MARGIN.right} />
      ) : null}
      <TimeTicks fromSeconds={fromSeconds} toSeconds={toSeconds} />
      {inGwei ? <NowMarker currentBaseFee={currentBaseFee} /> : null}
      <BucketHover buckets={buckets} runs={runs} unit={unit} />
    </LineChart>
  );
});

/** The bands and the median line, made once per answer (and per size of the chart). */
const Bands = memo(function Bands({ runs }: { runs: readonly (readonly BandPoint[])[] }) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const paths = useMemo(() => {
    if (xScale === undefined || yScale === undefined) return undefined;
    const x = (seconds: number) => xScale(seconds) ?? 0;
    const y = (gwei: number) => yScale(gwei) ?? 0;
    return {
      minMax: bandAreaPath(runs, x, y, "min", "max"),
      outer: bandAreaPath(runs, x, y, "p10", "p90"),
      inner: bandAreaPath(runs, x, y, "p25", "p75"),
      median: bandLinePath(runs, x, y, "p50"),
    };
  }, [runs, xScale, yScale]);
  const plot = usePlotArea();
  if (paths === undefined || plot === undefined) return null;
  return (
    <>
      <ZIndexLayer zIndex={DefaultZIndexes.area}>
        <defs>
          <clipPath id="stats-plot-clip">
            <rect x={plot.x} y={plot.y} width={plot.width} height={plot.height} />
          </clipPath>
        </defs>
        <g clipPath="url(#stats-plot-clip)">
          <path className="band band-min-max" data-testid="band-min-max" d={paths.minMax} />
          <path className="band band-p10-p90" data-testid="band-p10-p90" d={paths.outer} />
          <path className="band band-p25-p75" data-testid="band-p25-p75" d={paths.inner} />
        </g>
      </ZIndexLayer>
      <ZIndexLayer zIndex={DefaultZIndexes.line + 1}>
        <path className="band-median" data-testid="band-p50" d={paths.median} fill="none" clipPath="url(#stats-plot-clip)" />
      </ZIndexLayer>
    </>
  );
});

/** The span before the oldest block held, shaded and named: the history does not reach there (yet). */
function UnheldSpan({
  fromSeconds,
  toSeconds,
  heldFromSeconds,
  backfilling,
}: {
  fromSeconds: number;
  toSeconds: number;
  heldFromSeconds: number | null;
  backfilling: boolean;
}) {
  const plot = usePlotArea();
  const xScale = useXAxisScale();
  if (plot === undefined || xScale === undefined) return null;
  const until = heldFromSeconds === null ? toSeconds : Math.min(toSeconds, heldFromSeconds);
  if (until <= fromSeconds) return null;
  const left = plot.x;
  const right = xScale(until) ?? plot.x + plot.width;
  const width = right - left;
  if (width < 1) return null;
  const words = backfilling ? "older blocks on their way" : "before the history held";
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.grid + 1}>
      <g className="unheld-span" data-testid="unheld-span" data-until={until}>
        <rect x={left} y={plot.y} width={width} height={plot.height} />
        {width >= 150 ? (
          <text x={left + width / 2} y={plot.y + 18} textAnchor="middle">
            {words}
          </text>
        ) : null}
      </g>
    </ZIndexLayer>
  );
}

/** About one tick per 110 pixels, at round moments of the reader's clock (see timeTicks.ts). */
const TICK_SPACING_PX = 110;

function TimeTicks({ fromSeconds, toSeconds }: { fromSeconds: number; toSeconds: number }) {
  const plot = usePlotArea();
  const xScale = useXAxisScale();
  const maxTicks = plot === undefined ? 0 : Math.max(2, Math.floor(plot.width / TICK_SPACING_PX));
  const placedTicks = useMemo(() => timeTicks(fromSeconds, toSeconds, maxTicks), [fromSeconds, toSeconds, maxTicks]);
  if (plot === undefined || xScale === undefined) return null;
  const axisY = plot.y + plot.height;
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.axis}>
      <g className="recharts-cartesian-axis-ticks recharts-xAxis-ticks time-ticks">
        {placedTicks.map((tick) => {
          const x = xScale(tick.seconds) ?? plot.x;
          return (
            <g key={tick.seconds} className="recharts-layer recharts-cartesian-axis-tick">
              <line className="recharts-cartesian-axis-tick-line" fill="none" x1={x} y1={axisY + TICK_SIZE_PX} x2={x} y2={axisY} />
              <text
                x={x}
                y={axisY + TICK_SIZE_PX + TICK_MARGIN_PX}
                textAnchor="middle"
                className={`recharts-text recharts-cartesian-axis-tick-value${tick.midnight ? " tick-midnight" : ""}`}
              >
                <tspan x={x} dy="0.71em">
                  {timeTickLabel(tick)}
                </tspan>
              </text>
            </g>
          );
        })}
      </g>
    </ZIndexLayer>
  );
}

/** The next block's base fee at the right edge (held inside the plot when it is off the scale). */
function NowMarker({ currentBaseFee }: { currentBaseFee: string | null }) {
  const plot = usePlotArea();
  const yScale = useYAxisScale();
  if (plot === undefined || yScale === undefined || currentBaseFee === null) return null;
  const y = Math.min(plot.y + plot.height, Math.max(plot.y, yScale(Number(currentBaseFee)) ?? plot.y));
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.line + 2}>
      <circle className="now-dot" data-testid="now-dot" data-value={currentBaseFee} cx={plot.x + plot.width} cy={y} r={NOW_DOT_RADIUS_PX}>
        <title>{`next block's base fee: ${currentBaseFee} Gwei`}</title>
      </circle>
    </ZIndexLayer>
  );
}

/** The bucket under the pointer: its time, its blocks and its values. Its own state, so that the pointer redraws only this. */
function BucketHover({ buckets, runs, unit }: { buckets: readonly BaseFeeStatsBucket[]; runs: readonly (readonly BandPoint[])[]; unit: ValueUnit }) {
  const plot = usePlotArea();
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const [hoverX, setHoverX] = useState<number | undefined>(undefined);
  const points = useMemo(() => new Map(runs.flat().map((point) => [point.bucket, point])), [runs]);
  if (plot === undefined || xScale === undefined || yScale === undefined) return null;
  let readout = null;
  if (hoverX !== undefined) {
    const fraction = Math.min(1, Math.max(0, (hoverX - plot.x) / Math.max(1, plot.width)));
    const bucket = buckets[Math.min(buckets.length - 1, Math.floor(fraction * buckets.length))]!;
    const point = points.get(bucket);
    const x = xScale((bucket.start + bucket.end) / 2) ?? plot.x;
    const y = point === undefined ? plot.y + plot.height / 2 : (yScale(point.p50) ?? plot.y);
    const when = { text: bucketTimeSpan(bucket.start, bucket.end), className: "chart-tooltip-block" };
    const lines =
      point === undefined || bucket.p50 === undefined
        ? [when, { text: unit.kind === "gwei" || bucket.blocks === 0 ? "no blocks held" : "no price held", className: "chart-tooltip-value" }]
        : [
            when,
            { text: `median ${unit.exact(bucket.p50)}`, className: "chart-tooltip-value", dataValue: bucket.p50 },
            { text: `p10–p90 ${figure(unit, bucket.p10)} – ${figure(unit, bucket.p90)}`, className: "chart-tooltip-block" },
            { text: `min–max ${figure(unit, bucket.min)} – ${figure(unit, bucket.max)}`, className: "chart-tooltip-block" },
            {
              text: `${blockNumber(bucket.blocks)} block${bucket.blocks === 1 ? "" : "s"}: ${blockNumber(bucket.fromBlock ?? "")} to ${blockNumber(bucket.toBlock ?? "")}`,
              className: "chart-tooltip-block",
            },
          ];
    readout = (
      <g className="chart-hover" pointerEvents="none">
        <line className="chart-cursor" x1={x} x2={x} y1={plot.y} y2={plot.y + plot.height} />
        {point === undefined ? null : <circle className="chart-hover-dot band-hover-dot" cx={x} cy={y} r={3.5} />}
        <ChartTooltip x={x} y={y} plot={plot} lines={lines} />
      </g>
    );
  }
  return (
    <ChartHoverLayer plot={plot} onHoverX={setHoverX}>
      {readout}
    </ChartHoverLayer>
  );
}

/** A bucket's figure as the tooltip's ranges write it: Gwei bare (the median names the unit), money with its sign. */
function figure(unit: ValueUnit, value: string | undefined): string {
  if (value === undefined) return "";
  return unit.kind === "gwei" ? value : unit.exact(value);
}
