import { useLayoutEffect, useRef } from "react";
import { DefaultZIndexes, usePlotArea, useYAxisScale, ZIndexLayer } from "recharts";
import { type AlertLine, alertPlateTops, type PlacedThreshold } from "./chartAlertLines.ts";
import { TEXT_PAD_PX } from "../chart/ChartTooltip.tsx";

const PLATE_HEIGHT_PX = 16;
/** Between the plot's left edge and a plate. */
const PLATE_INSET_PX = 6;

/**
 * The enabled alert rules' thresholds across the plot as dotted lines, each labelled on a plate at the plot's left
 * (the statistics lines' plates are in the right margin). A threshold outside the fee axis (too far from the fees to
 * widen it: chartAlertLines.ts) gets no line, only its plate at the top or bottom edge with an arrow.
 */
export function AlertLines({ lines }: { lines: readonly AlertLine[] }) {
  const plot = usePlotArea();
  const yScale = useYAxisScale();
  if (plot === undefined || yScale === undefined || lines.length === 0) return null;
  const top = plot.y;
  const bottom = plot.y + plot.height;
  const placed = lines.map((line) => {
    const y = yScale(Number(line.threshold));
    const edge: PlacedThreshold["edge"] = y === undefined || y < top - 0.5 ? "top" : y > bottom + 0.5 ? "bottom" : undefined;
    return { line, edge, y: edge === "top" ? top : edge === "bottom" ? bottom : y! };
  });
  const plateTops = alertPlateTops(placed, top, bottom, PLATE_HEIGHT_PX);
  const plates = placed.map((entry, index) => ({ ...entry, plateY: plateTops[index]! }));
  // The lines below the fee line (as the statistics lines), their plates above it (with the axes, below the hover
  // layer), so that the fees never hide a label.
  return (
    <>
      <ZIndexLayer zIndex={DefaultZIndexes.line}>
        {plates.map(({ line, edge, y }) => (
          <g
            key={line.ruleId}
            className={`alert-line alert-line-${line.when}`}
            data-testid="alert-line"
            data-rule={line.ruleId}
            data-value={line.threshold}
            data-edge={edge ?? ""}
          >
            <title>{line.title}</title>
            {edge ? null : <line className="alert-line-line" x1={plot.x} y1={y} x2={plot.x + plot.width} y2={y} />}
          </g>
        ))}
      </ZIndexLayer>
      <ZIndexLayer zIndex={DefaultZIndexes.axis}>
        {plates.map(({ line, edge, plateY }) => (
          <AlertPlate
            key={line.ruleId}
            ruleId={line.ruleId}
            title={line.title}
            text={edge === "top" ? `${line.text} ↑` : edge === "bottom" ? `${line.text} ↓` : line.text}
            x={plot.x + PLATE_INSET_PX}
            y={plateY}
          />
        ))}
      </ZIndexLayer>
    </>
  );
}

/** A plate as wide as its text is drawn (measured once laid out, again only when the text changes). */
function AlertPlate({ ruleId, title, text, x, y }: { ruleId: string; title: string; text: string; x: number; y: number }) {
  const plate = useRef<SVGRectElement>(null);
  const label = useRef<SVGTextElement>(null);
  useLayoutEffect(() => {
    if (!plate.current || !label.current) return;
    plate.current.setAttribute("width", String(Math.ceil(label.current.getComputedTextLength()) + 2 * TEXT_PAD_PX));
  }, [text]);
  return (
    <g className="alert-line-label" data-testid="alert-line-label" data-rule={ruleId}>
      <title>{title}</title>
      <rect ref={plate} x={x} y={y} height={PLATE_HEIGHT_PX} rx={3} />
      <text ref={label} x={x + TEXT_PAD_PX} y={y + 12}>
        {text}
      </text>
    </g>
  );
}
