import { memo, useMemo } from "react";
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, XAxis } from "recharts";
import { CHART_STYLE, TICK_MARGIN_PX } from "../chart/chartFrame.ts";
import { feeTicks } from "../chart/chartTicks.ts";
import { feeYAxis } from "../chart/feeYAxis.tsx";
import type { ValueUnit } from "../text/valueUnit.ts";
import type { ShownValue } from "./outlookMoney.ts";
import { horizonText, OUTLOOK_HORIZONS, type RibbonRow } from "./outlookView.ts";

const MARGIN = { top: 8, right: 16, bottom: 2, left: 14 } as const;

/**
 * The lowest cost likely within each horizon, 1 to 24 h: its p10 to p90 as a band, its p50 as a line with a dot per
 * horizon asked, now as a dashed line across, the chosen horizon marked.
 */
export const OutlookRibbon = memo(function OutlookRibbon({
  rows,
  now,
  selected,
  unit,
}: {
  rows: readonly RibbonRow[];
  now: ShownValue;
  selected: number;
  unit: ValueUnit;
}) {
  const data = useMemo(() => rows.map((row) => ({ hours: row.hours, band: [...row.band], p50: row.p50Value })), [rows]);
  const { domain, ticks } = useMemo(() => {
    const values = [now.value, ...rows.flatMap((row) => [row.band[0], row.band[1]])];
    const sameTicks = feeTicks(Math.min(...values), Math.max(...values), 4);
    return { domain: [sameTicks[0]!, sameTicks[sameTicks.length - 1]!] as const, ticks: sameTicks };
  }, [rows, now.value]);
  const tickText = useMemo(() => unit.alike(ticks), [unit, ticks]);
  return (
    <ComposedChart responsive style={CHART_STYLE} margin={MARGIN} data={data}>
      <CartesianGrid vertical={false} />
      <XAxis
        dataKey="hours"
        type="number"
        domain={[OUTLOOK_HORIZONS[0], OUTLOOK_HORIZONS[OUTLOOK_HORIZONS.length - 1]!]}
        ticks={[...OUTLOOK_HORIZONS]}
        interval={0}
        tickFormatter={(hours: number) => horizonText(hours)}
        tickMargin={TICK_MARGIN_PX}
        className="chart-axis"
      />
      {feeYAxis(domain, ticks, tickText)}
      <ReferenceLine x={selected} className="outlook-selected" ifOverflow="hidden" />
      <Area dataKey="band" type="monotone" className="outlook-band-area" isAnimationActive={false} activeDot={false} />
      <Line dataKey="p50" type="monotone" className="outlook-p50-line" dot={{ r: 3 }} isAnimationActive={false} activeDot={false} />
      <ReferenceLine
        y={now.value}
        className="outlook-now-line"
        ifOverflow="extendDomain"
        label={{ value: `now ${now.short}`, position: "insideTopRight", className: "outlook-now-label" }}
      />
    </ComposedChart>
  );
});
