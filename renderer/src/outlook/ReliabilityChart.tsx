import { memo } from "react";
import { CartesianGrid, ReferenceLine, Scatter, ScatterChart, XAxis, YAxis, ZAxis } from "recharts";
import { CHART_STYLE } from "../chart/chartFrame.ts";
import type { ReliabilityPoint } from "./outlookView.ts";

const MARGIN = { top: 10, right: 12, bottom: 14, left: 8 } as const;
const TICKS = [0, 0.5, 1];
const percent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * The backtest's reliability by tenths: what the outlook said (x) against how often it happened (y), a dot per tenth
 * sized by its forecasts; on the diagonal, it happened exactly as often as it said.
 */
export const ReliabilityChart = memo(function ReliabilityChart({ points }: { points: readonly ReliabilityPoint[] }) {
  return (
    <ScatterChart responsive style={CHART_STYLE} margin={MARGIN}>
      <CartesianGrid />
      <XAxis
        dataKey="said"
        type="number"
        domain={[0, 1]}
        ticks={TICKS}
        tickFormatter={percent}
        className="chart-axis"
        label={{ value: "it said", position: "insideBottom", offset: -10, className: "outlook-axis-name" }}
      />
      <YAxis dataKey="happened" type="number" domain={[0, 1]} ticks={TICKS} tickFormatter={percent} width={44} className="chart-axis" />
      <ZAxis dataKey="forecasts" type="number" range={[16, 120]} />
      <ReferenceLine
        segment={[
          { x: 0, y: 0 },
          { x: 1, y: 1 },
        ]}
        className="outlook-diagonal"
      />
      <Scatter data={[...points]} className="outlook-reliability-dots" isAnimationActive={false} />
    </ScatterChart>
  );
});
