import { YAxis } from "recharts";
import { Y_AXIS_WIDTH_PX } from "./chartFrame.ts";
import { gweiTick } from "../text/format.ts";

/**
 * Both charts' fee axis: numeric, the given domain and ticks exactly (none skipped), Gwei labels (or the given unit's: a cost in money). An element, not a
 * component, because recharts reads its axes from the chart's own children.
 */
export function feeYAxis(domain: readonly [number, number], ticks: readonly number[], tickFormatter: (value: number) => string = gweiTick) {
  return (
    <YAxis
      type="number"
      domain={[...domain]}
      allowDataOverflow
      ticks={[...ticks]}
      interval={0}
      tickFormatter={tickFormatter}
      width={Y_AXIS_WIDTH_PX}
      className="chart-axis"
    />
  );
}
