import { memo, useMemo } from "react";
import type { BaseFeeStatsBucket } from "../../../shared/wire/baseFeeStats.ts";
import { bandAreaPath, bandExtent, bandLinePath, bandRuns } from "../chart/bucketBands.ts";

const WIDTH_PX = 52;
const HEIGHT_PX = 22;
const PAD_PX = 2;

/** A small line of the buckets' medians over their 10th-to-90th band, gaps left empty, scaled to its own values. */
export const Sparkline = memo(function Sparkline({ buckets, label }: { buckets: readonly BaseFeeStatsBucket[]; label: string }) {
  const paths = useMemo(() => {
    const runs = bandRuns(buckets);
    const extent = bandExtent(runs, "p10", "p90");
    if (extent === undefined || buckets.length === 0) return undefined;
    const from = buckets[0]!.start;
    const to = buckets[buckets.length - 1]!.end;
    const span = extent.high - extent.low || 1;
    const x = (seconds: number) => PAD_PX + ((seconds - from) / Math.max(1, to - from)) * (WIDTH_PX - 2 * PAD_PX);
    const y = (gwei: number) => HEIGHT_PX - PAD_PX - ((gwei - extent.low) / span) * (HEIGHT_PX - 2 * PAD_PX);
    return { band: bandAreaPath(runs, x, y, "p10", "p90"), median: bandLinePath(runs, x, y, "p50") };
  }, [buckets]);
  if (paths === undefined) return <span className="sparkline sparkline-empty" aria-hidden="true" />;
  return (
    <svg
      className="sparkline"
      width={WIDTH_PX}
      height={HEIGHT_PX}
      viewBox={`0 0 ${WIDTH_PX} ${HEIGHT_PX}`}
      role="img"
      aria-label={label}
      data-testid="sparkline"
    >
      <path className="sparkline-band" d={paths.band} />
      <path className="sparkline-median" d={paths.median} fill="none" />
    </svg>
  );
});
