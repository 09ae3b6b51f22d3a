import { useLayoutEffect, useRef } from "react";
import { DefaultZIndexes, usePlotArea, useYAxisScale, ZIndexLayer } from "recharts";
import { shortGwei } from "../../../shared/core/text/shortGwei.ts";
import { PLATE_OFFSET_PX } from "./chartFrame.ts";
import { TEXT_PAD_PX } from "./ChartTooltip.tsx";
import { statsLineNames } from "../text/windowWords.ts";

interface Props {
  /** Exact Gwei strings of the API. */
  readonly baseFeePercentile: string;
  readonly busyThreshold: string;
  /** The statistics window they are computed over, in words (statsWindowWords: "24 h", "the 3.2 h held"). */
  readonly windowName: string;
  /** The chart's right margin, which holds the plates. */
  readonly marginRightPx: number;
}

/**
 * The statistics window's 50th percentile and busy threshold across the plot, each with its value on a plate in the
 * right margin (the window is named in the chart's legend and in each plate's title): drawn as recharts draws a
 * reference line (the same elements and classes), below the fee line.
 */
export function StatsLines({ baseFeePercentile, busyThreshold, windowName, marginRightPx }: Props) {
  const plot = usePlotArea();
  const yScale = useYAxisScale();
  if (plot === undefined || yScale === undefined) return null;
  const names = statsLineNames(windowName);
  const lineAt = (value: string, kind: "p50" | "busy", text: string, name: string) => {
    const y = yScale(Number(value));
    if (y === undefined) return null;
    return (
      <g className={`recharts-layer recharts-reference-line ref-${kind}`}>
        <line className="recharts-reference-line-line" fill="none" x1={plot.x} y1={y} x2={plot.x + plot.width} y2={y} />
        <LineLabel
          text={text}
          title={`${name}: ${value} Gwei`}
          exact={value}
          kind={kind}
          left={plot.x + plot.width + PLATE_OFFSET_PX}
          right={plot.x + plot.width + marginRightPx}
          lineY={y}
        />
      </g>
    );
  };
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.line}>
      {lineAt(baseFeePercentile, "p50", `p50 ${shortGwei(baseFeePercentile)}`, names.p50)}
      {lineAt(busyThreshold, "busy", `busy ${shortGwei(busyThreshold)}`, names.busy)}
    </ZIndexLayer>
  );
}

interface LabelProps {
  readonly text: string;
  readonly title: string;
  readonly exact: string;
  readonly kind: "p50" | "busy";
  /** Where the plate starts, unless it would then end past `right` (the chart's edge): then it ends there. */
  readonly left: number;
  readonly right: number;
  /** The y of the line the plate sits on. */
  readonly lineY: number;
}

/**
 * A line's value on a plate, its edge on the line: the busy threshold's above, the 50th percentile's below, so that the
 * two never overlap (the threshold is never below the percentile). The plate is as wide as its text is drawn,
 * measured once the text is laid out (a width guessed from the number of characters depends on the font and the
 * zoom); it is measured again only when the text changes.
 */
function LineLabel({ text, title, exact, kind, left, right, lineY }: LabelProps) {
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
      <title>{title}</title>
      <rect ref={plate} y={y} height={16} rx={3} />
      <text ref={label} y={y + 12}>
        {text}
      </text>
    </g>
  );
}
