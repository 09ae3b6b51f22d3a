import { useLayoutEffect, useRef } from "react";

/** Room between a plate's or the tooltip's edge and its text. */
export const TEXT_PAD_PX = 5;
const LINE_HEIGHT_PX = 16;
/** Between the pointed value and the tooltip's near edge. */
const TOOLTIP_GAP_PX = 12;

export interface TooltipLine {
  readonly text: string;
  /** `chart-tooltip-block` (muted) or `chart-tooltip-value` (bold), and any class of the caller's. */
  readonly className: string;
  /** The exact value the line shows, for tests and copy. */
  readonly dataValue?: string;
}

interface Props {
  /** Where the pointed value is drawn. */
  readonly x: number;
  readonly y: number;
  readonly plot: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  readonly lines: readonly TooltipLine[];
}

/**
 * A box of text lines beside the pointed value, on its right unless the box would leave the plot. The box is sized to
 * its text as drawn, measured after layout and before paint: nothing is guessed from the number of characters, so it
 * fits in any font and at any zoom.
 */
export function ChartTooltip({ x, y, plot, lines }: Props) {
  const box = useRef<SVGRectElement>(null);
  const texts = useRef<Array<SVGTextElement | null>>([]);
  useLayoutEffect(() => {
    if (!box.current) return;
    const drawn = texts.current.slice(0, lines.length).filter((text): text is SVGTextElement => text !== null);
    const textWidth = Math.max(...drawn.map((text) => text.getComputedTextLength()));
    const width = Math.ceil(textWidth) + 2 * (TEXT_PAD_PX + 3);
    const left = x + TOOLTIP_GAP_PX + width > plot.x + plot.width ? x - TOOLTIP_GAP_PX - width : x + TOOLTIP_GAP_PX;
    box.current.setAttribute("x", String(left));
    box.current.setAttribute("width", String(width));
    for (const text of drawn) text.setAttribute("x", String(left + TEXT_PAD_PX + 3));
  });
  const height = lines.length * LINE_HEIGHT_PX + 6;
  const top = Math.min(Math.max(plot.y, y - 46), plot.y + plot.height - height - 2);
  return (
    <g className="chart-tooltip" data-testid="chart-tooltip">
      <rect ref={box} y={top} height={height} rx={5} />
      {lines.map((line, index) => (
        <text
          key={index}
          ref={(element) => {
            texts.current[index] = element;
          }}
          className={line.className}
          y={top + 15 + index * LINE_HEIGHT_PX}
          data-value={line.dataValue}
        >
          {line.text}
        </text>
      ))}
    </g>
  );
}
