import { memo, useEffect, useMemo, useState } from "react";
import { CartesianGrid, DefaultZIndexes, LineChart, usePlotArea, useXAxisScale, useYAxisScale, XAxis, ZIndexLayer } from "recharts";
import { AlertLines } from "./AlertLines.tsx";
import type { FeePoint } from "./chainData.ts";
import { type AlertLine, thresholdsInView } from "./chartAlertLines.ts";
import { CHART_MARGIN, CHART_STYLE, TICK_MARGIN_PX, TICK_SIZE_PX } from "../chart/chartFrame.ts";
import { ChartHoverLayer } from "../chart/ChartHoverLayer.tsx";
import { feeYAxis } from "../chart/feeYAxis.tsx";
import { ChartTooltip } from "../chart/ChartTooltip.tsx";
import { blockTicks, feeTicks } from "../chart/chartTicks.ts";
import { blockNumber } from "../text/format.ts";
import { StatsLines } from "../chart/StatsLines.tsx";

export interface FeeChartProps {
  readonly points: readonly FeePoint[];
  /** Exact Gwei strings of the API. */
  readonly baseFeePercentile: string;
  readonly busyThreshold: string;
  /** The statistics window the two are computed over, in words (statsWindowWords). */
  readonly windowName: string;
  /** The chain's enabled alert rules' thresholds, drawn dotted (the same array while they hold, so that memo holds). */
  readonly alertLines: readonly AlertLine[];
  /** A second line per block, drawn thin and dashed: the blob view's EIP-7918 reserve price (a sixteenth of each block's base fee). */
  readonly floor?: readonly FloorPoint[];
}

/** A point of the floor line: a block and a value in Gwei (for drawing only). */
export interface FloorPoint {
  readonly block: number;
  readonly gwei: number;
}

/**
 * The newest blocks' base fees with the 50th percentile, the busy threshold and the alert rules' thresholds. Memoised, so that nothing but a new
 * block (not the data age ticking) redraws it.
 *
 * Recharts draws the frame (axes with given domains, the y ticks, grid) and gives the scales; the line (one path), the
 * block ticks and the statistics lines (StatsLines) are drawn from those scales. The chart itself gets no `data`: recharts'
 * `<Line>` spent most of an update on its own (500 point objects, 500 label entries, the axes' values of every point,
 * and a forced layout in `getTotalLength` on each render for its draw animation), where one `d` string of 500 points
 * costs well under 1 ms. Its `<ReferenceLine>` reports itself to recharts' store on every render, so a line that moved
 * made recharts lay the whole chart out again, axes included: the slowest live updates (~20 ms) were those.
 */
export const FeeChart = memo(function FeeChart({ points, baseFeePercentile, busyThreshold, windowName, alertLines, floor }: FeeChartProps) {
  const p50 = Number(baseFeePercentile);
  const busy = Number(busyThreshold);
  let low = Math.min(p50, busy);
  let high = Math.max(p50, busy);
  for (const point of points) {
    if (point.gwei < low) low = point.gwei;
    if (point.gwei > high) high = point.gwei;
  }
  for (const point of floor ?? []) {
    if (point.gwei < low) low = point.gwei;
    if (point.gwei > high) high = point.gwei;
  }
  // Alert thresholds near the fees widen the axis to show where they are; one far off is marked at the edge instead.
  for (const threshold of thresholdsInView(
    low,
    high,
    alertLines.map((line) => Number(line.threshold)),
  )) {
    low = Math.min(low, threshold);
    high = Math.max(high, threshold);
  }
  // The same arrays while the round ticks stay (most blocks): new arrays would be a new y-axis setting to recharts.
  const tickKey = feeTicks(low, high).join(" ");
  const { domain, ticks } = useMemo(() => {
    const sameTicks = tickKey.split(" ").map(Number);
    return { domain: [sameTicks[0]!, sameTicks[sameTicks.length - 1]!] as [number, number], ticks: sameTicks };
  }, [tickKey]);

  // x is a block's distance from the newest one (-499 … 0), so that the x axis recharts knows stays the same from
  // block to block once the window is full: a new block then changes none of recharts' settings (each change goes
  // through its store and redraws every part of the chart), only the line and the block ticks drawn here.
  const span = points.length === 0 ? 0 : points[points.length - 1]!.block - points[0]!.block;
  const xDomain = useMemo<[number, number]>(() => [-span, 0], [span]);

  useEffect(() => {
    if (points.length > 0 && performance.getEntriesByName("gasfees:first-chart").length === 0) {
      performance.mark("gasfees:first-chart");
    }
  }, [points]);

  // Recharts' own parts as the same elements while what they show holds: React and recharts then skip them on a new block.
  const grid = useMemo(() => <CartesianGrid vertical={false} className="chart-grid" />, []);
  const axes = useMemo(
    () => (
      <>
        {/*
          The domains are given outright and hold every point and both reference values; allowDataOverflow tells
          recharts to take them as they are, without data. A dataKey keeps the x axis numeric (without one, recharts
          counts a horizontal chart's x axis in data rows). Its ticks are BlockTicks'.
        */}
        <XAxis dataKey="block" type="number" domain={xDomain} allowDataOverflow tick={false} tickLine={false} className="chart-axis" />
        {feeYAxis(domain, ticks)}
      </>
    ),
    [xDomain, domain, ticks],
  );
  return (
    <LineChart responsive style={CHART_STYLE} margin={CHART_MARGIN}>
      {grid}
      {axes}
      <StatsLines baseFeePercentile={baseFeePercentile} busyThreshold={busyThreshold} windowName={windowName} marginRightPx={CHART_MARGIN.right} />
      <AlertLines lines={alertLines} />
      <BlockTicks points={points} />
      {floor === undefined ? null : <FeeLine points={floor} last={points[points.length - 1]?.block} className="floor-line" />}
      <FeeLine points={points} />
      <HoverLayer points={points} />
    </LineChart>
  );
});

/**
 * The x axis' ticks at round block numbers (about six, a multiple of 1, 2 or 5 times a power of ten), drawn as
 * recharts draws an axis' ticks, from its scale: they move with each block, so recharts is not told about them.
 */
function BlockTicks({ points }: { points: readonly FeePoint[] }) {
  const plot = usePlotArea();
  const xScale = useXAxisScale();
  const first = points[0]?.block ?? 0;
  const last = points[points.length - 1]?.block ?? 0;
  const xTicks = useMemo(() => blockTicks(first, last), [first, last]);
  if (plot === undefined || xScale === undefined || points.length === 0) return null;
  const axisY = plot.y + plot.height;
  const placed = xTicks.map((block) => ({ block, x: xScale(block - last) ?? plot.x }));
  return (
    <>
      <ZIndexLayer zIndex={DefaultZIndexes.axis}>
        <g className="recharts-cartesian-axis-ticks recharts-xAxis-ticks">
          <g className="recharts-cartesian-axis-tick-lines recharts-xAxis-tick-lines">
            {placed.map(({ block, x }) => (
              <g key={block} className="recharts-layer recharts-cartesian-axis-tick">
                <line className="recharts-cartesian-axis-tick-line" stroke="#666" fill="none" x1={x} y1={axisY + TICK_SIZE_PX} x2={x} y2={axisY} />
              </g>
            ))}
          </g>
        </g>
      </ZIndexLayer>
      <ZIndexLayer zIndex={DefaultZIndexes.label}>
        <g className="recharts-cartesian-axis-tick-labels recharts-xAxis-tick-labels">
          {placed.map(({ block, x }) => (
            <g key={block} className="recharts-layer recharts-cartesian-axis-tick-label">
              <text
                x={x}
                y={axisY + TICK_SIZE_PX + TICK_MARGIN_PX}
                stroke="none"
                fill="#666"
                textAnchor="middle"
                className="recharts-text recharts-cartesian-axis-tick-value"
              >
                <tspan x={x} dy="0.71em">
                  {blockNumber(block)}
                </tspan>
              </text>
            </g>
          ))}
        </g>
      </ZIndexLayer>
    </>
  );
}

/**
 * The base-fee line: one `path.recharts-curve`, as recharts' `<Line>` drew it (`M x,y L x,y …`, no dots, no
 * animation), above the reference lines and below the axes, as `<Line>` was.
 */
function FeeLine({ points, last: lastBlock, className = "fee-line" }: { points: readonly FloorPoint[]; last?: number | undefined; className?: string }) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  if (xScale === undefined || yScale === undefined || points.length === 0) return null;
  const last = lastBlock ?? points[points.length - 1]!.block;
  let d = "";
  for (let index = 0; index < points.length; index++) {
    const point = points[index]!;
    const x = xScale(point.block - last);
    const y = yScale(point.gwei);
    if (x === undefined || y === undefined) continue;
    // Thousandths of a pixel: exact enough to compare with the reference lines, and a short string.
    d += `${d === "" ? "M" : "L"}${Math.round(x * 1000) / 1000},${Math.round(y * 1000) / 1000}`;
  }
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.line + 1}>
      <path className={`recharts-curve ${className}`} d={d} fill="none" strokeWidth={className === "fee-line" ? 1.5 : 1.25} />
    </ZIndexLayer>
  );
}

/**
 * The hover readout: the block under the pointer with its exact base fee. Its own state, so that moving the pointer
 * redraws this layer only. (Recharts' Tooltip recomputes its data for all 500 points on every new block, a third of
 * an update's scripting time; this costs nothing until the pointer moves.)
 */
function HoverLayer({ points }: { points: readonly FeePoint[] }) {
  const plot = usePlotArea();
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const [hoverX, setHoverX] = useState<number | undefined>(undefined);
  if (plot === undefined || xScale === undefined || yScale === undefined || points.length === 0) return null;
  const first = points[0]!.block;
  const last = points[points.length - 1]!.block;
  let readout = null;
  if (hoverX !== undefined) {
    const fraction = Math.min(1, Math.max(0, (hoverX - plot.x) / Math.max(1, plot.width)));
    const point = points[Math.min(points.length - 1, Math.max(0, Math.round(fraction * (last - first))))]!;
    const x = xScale(point.block - last) ?? plot.x;
    const y = yScale(point.gwei) ?? plot.y;
    readout = (
      <g className="chart-hover" pointerEvents="none">
        <line className="chart-cursor" x1={x} x2={x} y1={plot.y} y2={plot.y + plot.height} />
        <circle className="chart-hover-dot" cx={x} cy={y} r={3.5} />
        <Tooltip x={x} y={y} plot={plot} point={point} />
      </g>
    );
  }
  return (
    <ChartHoverLayer plot={plot} onHoverX={setHoverX}>
      {readout}
    </ChartHoverLayer>
  );
}

/** The pointed block's number and its exact base fee. */
function Tooltip({ x, y, plot, point }: { x: number; y: number; plot: { x: number; y: number; width: number; height: number }; point: FeePoint }) {
  return (
    <ChartTooltip
      x={x}
      y={y}
      plot={plot}
      lines={[
        { text: `Block ${blockNumber(point.block)}`, className: "chart-tooltip-block" },
        { text: `${point.exact} Gwei`, className: "chart-tooltip-value", dataValue: point.exact },
      ]}
    />
  );
}
