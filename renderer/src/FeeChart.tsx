import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import { CartesianGrid, DefaultZIndexes, LineChart, usePlotArea, useXAxisScale, useYAxisScale, XAxis, YAxis, ZIndexLayer } from "recharts";
import { shortGwei } from "../../shared/core/text/shortGwei.ts";
import type { FeePoint } from "./chainData.ts";
import { blockTicks, feeTicks } from "./chartTicks.ts";
import { blockNumber, gweiTick } from "./format.ts";

export interface FeeChartProps {
  readonly points: readonly FeePoint[];
  /** Exact Gwei strings of the API. */
  readonly baseFeePercentile: string;
  readonly busyThreshold: string;
}

/** The right margin holds the reference lines' labels ("busy 102.4", "p50 1,235"), so that they never cover the newest blocks. */
const MARGIN = { top: 10, right: 92, bottom: 4, left: 4 };
const CHART_STYLE = { width: "100%", height: "100%" };

/**
 * The newest blocks' base fees with the 50th percentile and the busy threshold. Memoised, so that nothing but a new
 * block (not the data age ticking) redraws it.
 *
 * Recharts draws the frame (axes with given domains, the y ticks, grid) and gives the scales; the line (one path), the
 * block ticks and the two reference lines are drawn here from those scales. The chart itself gets no `data`: recharts'
 * `<Line>` spent most of an update on its own (500 point objects, 500 label entries, the axes' values of every point,
 * and a forced layout in `getTotalLength` on each render for its draw animation), where one `d` string of 500 points
 * costs well under 1 ms. Its `<ReferenceLine>` reports itself to recharts' store on every render, so a line that moved
 * made recharts lay the whole chart out again, axes included: the slowest live updates (~20 ms) were those.
 */
export const FeeChart = memo(function FeeChart({ points, baseFeePercentile, busyThreshold }: FeeChartProps) {
  const p50 = Number(baseFeePercentile);
  const busy = Number(busyThreshold);
  let low = Math.min(p50, busy);
  let high = Math.max(p50, busy);
  for (const point of points) {
    if (point.gwei < low) low = point.gwei;
    if (point.gwei > high) high = point.gwei;
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
        <YAxis type="number" domain={domain} allowDataOverflow ticks={ticks} interval={0} tickFormatter={gweiTick} width={48} className="chart-axis" />
      </>
    ),
    [xDomain, domain, ticks],
  );
  return (
    <LineChart responsive style={CHART_STYLE} margin={MARGIN}>
      {grid}
      {axes}
      <ReferenceLines baseFeePercentile={baseFeePercentile} busyThreshold={busyThreshold} />
      <BlockTicks points={points} />
      <FeeLine points={points} />
      <HoverLayer points={points} />
    </LineChart>
  );
});

/** Where recharts' x-axis tick lines and labels would be, with the same elements and classes. */
const TICK_SIZE = 6;
const TICK_MARGIN = 2;

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
                <line className="recharts-cartesian-axis-tick-line" stroke="#666" fill="none" x1={x} y1={axisY + TICK_SIZE} x2={x} y2={axisY} />
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
                y={axisY + TICK_SIZE + TICK_MARGIN}
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
 * The 50th percentile and the busy threshold across the plot, each with its value on a plate in the right margin:
 * drawn as recharts draws a reference line (the same elements and classes), below the fee line.
 */
function ReferenceLines({ baseFeePercentile, busyThreshold }: { baseFeePercentile: string; busyThreshold: string }) {
  const plot = usePlotArea();
  const yScale = useYAxisScale();
  if (plot === undefined || yScale === undefined) return null;
  const lineAt = (value: string, kind: "p50" | "busy", text: string) => {
    const y = yScale(Number(value));
    if (y === undefined) return null;
    return (
      <g className={`recharts-layer recharts-reference-line ref-${kind}`}>
        <line className="recharts-reference-line-line" fill="none" x1={plot.x} y1={y} x2={plot.x + plot.width} y2={y} />
        <LineLabel text={text} exact={value} kind={kind} left={plot.x + plot.width + 4} right={plot.x + plot.width + MARGIN.right} lineY={y} />
      </g>
    );
  };
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.line}>
      {lineAt(baseFeePercentile, "p50", `p50 ${shortGwei(baseFeePercentile)}`)}
      {lineAt(busyThreshold, "busy", `busy ${shortGwei(busyThreshold)}`)}
    </ZIndexLayer>
  );
}

interface LabelProps {
  readonly text: string;
  readonly exact: string;
  readonly kind: "p50" | "busy";
  /** Where the plate starts, unless it would then end past `right` (the chart's edge): then it ends there. */
  readonly left: number;
  readonly right: number;
  /** The y of the line the plate sits on. */
  readonly lineY: number;
}

/** Room between a plate's or the tooltip's edge and its text. */
const TEXT_PAD_PX = 5;

/**
 * A reference line's value on a plate, its edge on the line: the busy threshold's above, the 50th percentile's below,
 * so that the two never overlap (the threshold is never below the percentile). The plate is as wide as its text is
 * drawn, measured once the text is laid out (a width guessed from the number of characters depends on the font and
 * the zoom); it is measured again only when the text changes.
 */
function LineLabel({ text, exact, kind, left, right, lineY }: LabelProps) {
  const plate = useRef<SVGRectElement>(null);
  const label = useRef<SVGTextElement>(null);
  useLayoutEffect(() => {
    if (!plate.current || !label.current) return;
    const width = Math.ceil(label.current.getComputedTextLength()) + 2 * TEXT_PAD_PX;
    const start = Math.min(left, right - width - 1);
    plate.current.setAttribute("x", String(start));
    plate.current.setAttribute("width", String(width));
    label.current.setAttribute("x", String(start + TEXT_PAD_PX));
  }, [text, left, right]);
  const y = kind === "busy" ? lineY - 16 : lineY;
  return (
    <g className={`ref-label ref-label-${kind}`} data-testid={`ref-label-${kind}`} data-value={exact}>
      <title>{`${kind === "p50" ? "50th percentile" : "busy threshold"}: ${exact} Gwei`}</title>
      <rect ref={plate} y={y} height={16} rx={3} />
      <text ref={label} y={y + 12}>
        {text}
      </text>
    </g>
  );
}

/**
 * The base-fee line: one `path.recharts-curve`, as recharts' `<Line>` drew it (`M x,y L x,y …`, no dots, no
 * animation), above the reference lines and below the axes, as `<Line>` was.
 */
function FeeLine({ points }: { points: readonly FeePoint[] }) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  if (xScale === undefined || yScale === undefined || points.length === 0) return null;
  const last = points[points.length - 1]!.block;
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
      <path className="recharts-curve fee-line" d={d} fill="none" strokeWidth={1.5} />
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
  const onMove = (event: MouseEvent<SVGRectElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    setHoverX(plot.x + event.clientX - box.left);
  };
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

interface TooltipProps {
  /** Where the pointed block's value is drawn. */
  readonly x: number;
  readonly y: number;
  readonly plot: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  readonly point: FeePoint;
}

const TOOLTIP_HEIGHT_PX = 38;
/** Between the pointed value and the tooltip's near edge. */
const TOOLTIP_GAP_PX = 12;

/**
 * The block number and its exact base fee in a box beside the pointed value, on its right unless the box would leave
 * the plot. The box is sized to its text as drawn, measured after layout and before paint: nothing is guessed from
 * the number of characters, so it fits in any font and at any zoom.
 */
function Tooltip({ x, y, plot, point }: TooltipProps) {
  const box = useRef<SVGRectElement>(null);
  const blockLine = useRef<SVGTextElement>(null);
  const valueLine = useRef<SVGTextElement>(null);
  useLayoutEffect(() => {
    if (!box.current || !blockLine.current || !valueLine.current) return;
    const textWidth = Math.max(blockLine.current.getComputedTextLength(), valueLine.current.getComputedTextLength());
    const width = Math.ceil(textWidth) + 2 * (TEXT_PAD_PX + 3);
    const left = x + TOOLTIP_GAP_PX + width > plot.x + plot.width ? x - TOOLTIP_GAP_PX - width : x + TOOLTIP_GAP_PX;
    box.current.setAttribute("x", String(left));
    box.current.setAttribute("width", String(width));
    blockLine.current.setAttribute("x", String(left + TEXT_PAD_PX + 3));
    valueLine.current.setAttribute("x", String(left + TEXT_PAD_PX + 3));
  });
  const top = Math.min(Math.max(plot.y, y - 46), plot.y + plot.height - TOOLTIP_HEIGHT_PX - 2);
  return (
    <g className="chart-tooltip" data-testid="chart-tooltip">
      <rect ref={box} y={top} height={TOOLTIP_HEIGHT_PX} rx={5} />
      <text ref={blockLine} className="chart-tooltip-block" y={top + 15}>
        {`Block ${blockNumber(point.block)}`}
      </text>
      <text ref={valueLine} className="chart-tooltip-value" y={top + 31} data-value={point.exact}>
        {`${point.exact} Gwei`}
      </text>
    </g>
  );
}
