import { memo, useEffect, useMemo } from "react";
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
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
        domain={["dataMin", "dataMax"]}
        allowDecimals={false}
        tickFormatter={blockNumber}
        tickCount={6}
        minTickGap={24}
        className="chart-axis"
      />
      <YAxis domain={domain} ticks={ticks} interval={0} tickFormatter={gweiTick} width={48} className="chart-axis" />
      <Tooltip content={FeeTooltip} isAnimationActive={false} cursor={{ className: "chart-cursor" }} />
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
      <Line dataKey="gwei" type="linear" dot={false} activeDot={{ r: 3 }} isAnimationActive={false} strokeWidth={1.5} className="fee-line" />
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

interface TooltipProps {
  readonly active?: boolean;
  readonly payload?: ReadonlyArray<{ payload?: FeePoint }>;
}

function FeeTooltip({ active, payload }: TooltipProps) {
  const point = payload?.[0]?.payload;
  if (!active || point === undefined) return null;
  return (
    <div className="chart-tooltip" data-testid="chart-tooltip">
      <div className="chart-tooltip-block">Block {blockNumber(point.block)}</div>
      <div className="chart-tooltip-value" data-value={point.exact}>
        {point.exact} Gwei
      </div>
    </div>
  );
}
