import { memo, useEffect, useMemo, useState, type MouseEvent } from "react";
import { CartesianGrid, Line, LineChart, ReferenceLine, usePlotArea, useXAxisScale, useYAxisScale, XAxis, YAxis, ZIndexLayer } from "recharts";
import type { FeePoint } from "./chainData.ts";
import { blockNumber, gweiTick, shortGwei } from "./format.ts";

export interface FeeChartProps {
  readonly points: readonly FeePoint[];
  /** Exact Gwei strings of the API. */
  readonly baseFeePercentile: string;
  readonly busyThreshold: string;
}

/** The right margin holds the reference lines' labels, so that they never cover the newest blocks. */
const MARGIN = { top: 10, right: 84, bottom: 4, left: 4 };
const CHART_STYLE = { width: "100%", height: "100%" };

/**
 * The newest blocks' base fees with the 50th percentile and the busy threshold. Drawn without animation and
 * memoised, so that a new block redraws the line in place and nothing else (the data age ticking) redraws it.
 */
export const FeeChart = memo(function FeeChart({ points, baseFeePercentile, busyThreshold }: FeeChartProps) {
  const p50 = Number(baseFeePercentile);
  const busy = Number(busyThreshold);
  const { domain, ticks } = useMemo(() => {
    let low = Math.min(p50, busy);
    let high = Math.max(p50, busy);
    for (const point of points) {
      if (point.gwei < low) low = point.gwei;
      if (point.gwei > high) high = point.gwei;
    }
    return niceScale(low, high);
  }, [points, p50, busy]);

  // Round block numbers as ticks, given outright: they change only every 100 blocks or so, so that recharts need
  // not measure tick labels in the DOM on each new block (a forced layout).
  const firstBlock = points[0]?.block ?? 0;
  const lastBlock = points[points.length - 1]?.block ?? 0;
  const { xDomain, xTicks } = useMemo(() => blockTicks(firstBlock, lastBlock), [firstBlock, lastBlock]);

  useEffect(() => {
    if (points.length > 0 && performance.getEntriesByName("gasfees:first-chart").length === 0) {
      performance.mark("gasfees:first-chart");
    }
  }, [points]);

  return (
    <LineChart responsive style={CHART_STYLE} data={points as FeePoint[]} margin={MARGIN}>
      <CartesianGrid vertical={false} className="chart-grid" />
      <XAxis
        dataKey="block"
        type="number"
        domain={xDomain}
        ticks={xTicks}
        interval={0}
        tickFormatter={blockNumber}
        className="chart-axis"
      />
      <YAxis domain={domain} ticks={ticks} interval={0} tickFormatter={gweiTick} width={48} className="chart-axis" />
      <ReferenceLine
        y={p50}
        ifOverflow="extendDomain"
        className="ref-p50"
        label={<LineLabel text={`p50 ${shortGwei(baseFeePercentile)}`} exact={baseFeePercentile} side="below" kind="p50" />}
      />
      <ReferenceLine
        y={busy}
        ifOverflow="extendDomain"
        className="ref-busy"
        label={<LineLabel text={`busy ${shortGwei(busyThreshold)}`} exact={busyThreshold} side="above" kind="busy" />}
      />
      <Line dataKey="gwei" type="linear" dot={false} activeDot={false} isAnimationActive={false} strokeWidth={1.5} className="fee-line" />
      <HoverLayer points={points} />
    </LineChart>
  );
});

interface LabelProps {
  readonly text: string;
  readonly exact: string;
  readonly side: "above" | "below";
  readonly kind: string;
  /** Given by recharts: the reference line's box. */
  readonly viewBox?: { x?: number; y?: number; width?: number; height?: number };
}

/**
 * A reference line's value on a plate in the right margin, its edge on the line: the busy threshold's above, the
 * 50th percentile's below, so that the two never overlap (the threshold is never below the percentile).
 */
function LineLabel({ text, exact, side, kind, viewBox }: LabelProps) {
  if (viewBox?.x === undefined || viewBox.y === undefined || viewBox.width === undefined) return null;
  const width = text.length * 6.9 + 10;
  const x = viewBox.x + viewBox.width + 4;
  const y = side === "above" ? viewBox.y - 16 : viewBox.y;
  return (
    <g className={`ref-label ref-label-${kind}`} data-testid={`ref-label-${kind}`} data-value={exact}>
      <title>{`${kind === "p50" ? "50th percentile" : "busy threshold"}: ${exact} Gwei`}</title>
      <rect x={x} y={y} width={width} height={16} rx={3} />
      <text x={x + 5} y={y + 12}>
        {text}
      </text>
    </g>
  );
}

/** Ticks at round block numbers (a multiple of 1, 2 or 5 times a power of ten), about six across the window. */
export function blockTicks(first: number, last: number): { xDomain: [number, number]; xTicks: number[] } {
  const span = Math.max(1, last - first);
  const raw = span / 6;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw)!;
  const xTicks: number[] = [];
  for (let tick = Math.ceil(first / step) * step; tick <= last; tick += step) xTicks.push(tick);
  return { xDomain: [first, last], xTicks };
}

/** Round ticks (1, 2, 2.5 or 5 times a power of ten) around [low, high], about five of them. */
export function niceScale(low: number, high: number, count = 5): { domain: [number, number]; ticks: number[] } {
  const span = high - low || Math.abs(high) || 1;
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw)!;
  const first = Math.max(0, Math.floor(low / step));
  const last = Math.ceil(high / step);
  const ticks: number[] = [];
  for (let index = first; index <= last; index++) ticks.push(Number((index * step).toPrecision(12)));
  return { domain: [ticks[0]!, ticks[ticks.length - 1]!], ticks };
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
  const onMove = (event: MouseEvent<SVGRectElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    setHoverX(plot.x + event.clientX - box.left);
  };
  let readout = null;
  if (hoverX !== undefined) {
    const fraction = Math.min(1, Math.max(0, (hoverX - plot.x) / Math.max(1, plot.width)));
    const point = points[Math.min(points.length - 1, Math.max(0, Math.round(fraction * (last - first))))]!;
    const x = xScale(point.block) ?? plot.x;
    const y = yScale(point.gwei) ?? plot.y;
    const blockText = `Block ${blockNumber(point.block)}`;
    const valueText = `${point.exact} Gwei`;
    const width = Math.max(blockText.length * 6.6, valueText.length * 7.2) + 16;
    const boxX = x + 12 + width > plot.x + plot.width ? x - 12 - width : x + 12;
    const boxY = Math.min(Math.max(plot.y, y - 46), plot.y + plot.height - 40);
    readout = (
      <g className="chart-hover" pointerEvents="none">
        <line className="chart-cursor" x1={x} x2={x} y1={plot.y} y2={plot.y + plot.height} />
        <circle className="chart-hover-dot" cx={x} cy={y} r={3.5} />
        <g className="chart-tooltip" data-testid="chart-tooltip">
          <rect x={boxX} y={boxY} width={width} height={38} rx={5} />
          <text className="chart-tooltip-block" x={boxX + 8} y={boxY + 15}>
            {blockText}
          </text>
          <text className="chart-tooltip-value" x={boxX + 8} y={boxY + 31} data-value={point.exact}>
            {valueText}
          </text>
        </g>
      </g>
    );
  }
  // Above the line and the reference lines (recharts' layers go up to 1200), so that the pointer reaches it anywhere.
  return (
    <ZIndexLayer zIndex={1500}>
    <g className="chart-hover-layer">
      <rect
        x={plot.x}
        y={plot.y}
        width={plot.width}
        height={plot.height}
        fill="transparent"
        onMouseMove={onMove}
        onMouseLeave={() => setHoverX(undefined)}
        data-testid="chart-hover-area"
      />
      {readout}
    </g>
    </ZIndexLayer>
  );
}
