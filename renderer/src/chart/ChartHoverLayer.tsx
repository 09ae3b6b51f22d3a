import type { MouseEvent, ReactNode } from "react";
import { ZIndexLayer } from "recharts";

/** The plot's box in the chart's coordinates. */
export interface PlotBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * A transparent area over the plot that reports the pointer's x (undefined once it leaves), and what the chart draws
 * for it (cursor, dot, tooltip): above the lines and the reference lines (recharts' layers go up to 1200), so that the
 * pointer reaches it anywhere on the plot.
 */
export function ChartHoverLayer({ plot, onHoverX, children }: { plot: PlotBox; onHoverX: (x: number | undefined) => void; children: ReactNode }) {
  const onMove = (event: MouseEvent<SVGRectElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    onHoverX(plot.x + event.clientX - box.left);
  };
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
          onMouseLeave={() => onHoverX(undefined)}
          data-testid="chart-hover-area"
        />
        {children}
      </g>
    </ZIndexLayer>
  );
}
