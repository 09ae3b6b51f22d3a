// The chart's ranges: the exact newest blocks as the event stream sends them, or a span of time that the service
// summarises in buckets (baseFeeStats).
import { HISTORY_BLOCKS } from "../../../shared/core/fees/historyLength.ts";

export type ChartRangeId = "blocks" | "1h" | "24h" | "7d";

/** The newest blocks, one point per block, live from the event stream. */
export interface BlocksRange {
  readonly kind: "blocks";
  readonly id: "blocks";
  /** What the range selector shows. */
  readonly label: string;
}

/** A span of time ending at the newest block, drawn as per-bucket bands. */
export interface TimeRange {
  readonly kind: "time";
  readonly id: Exclude<ChartRangeId, "blocks">;
  readonly label: string;
  /** The `window` of the baseFeeStats request ("24h"). */
  readonly window: string;
  readonly windowSeconds: number;
  /** The `buckets` of the request: a bucket is windowSeconds / buckets long. */
  readonly buckets: number;
  /**
   * How old the buckets may grow before they are asked again: half a bucket (the newest bucket then never lags by more
   * than that), at least 15 s and at most 10 min, so that a week's view is not fetched again for every block.
   */
  readonly refreshMs: number;
}

export type ChartRange = BlocksRange | TimeRange;

const MIN_REFRESH_MS = 15_000;
const MAX_REFRESH_MS = 600_000;

function timeRange(id: TimeRange["id"], label: string, windowSeconds: number, buckets: number): TimeRange {
  const halfBucketMs = (windowSeconds * 1000) / buckets / 2;
  return {
    kind: "time",
    id,
    label,
    window: id,
    windowSeconds,
    buckets,
    refreshMs: Math.min(MAX_REFRESH_MS, Math.max(MIN_REFRESH_MS, halfBucketMs)),
  };
}

/** In the selector's order. Bucket counts keep a bucket a few pixels wide on a 1,100-pixel chart: 1 min, 5 min, 30 min. */
export const CHART_RANGES: readonly ChartRange[] = [
  { kind: "blocks", id: "blocks", label: `${HISTORY_BLOCKS} blocks` },
  timeRange("1h", "1 h", 3_600, 60),
  timeRange("24h", "24 h", 86_400, 288),
  timeRange("7d", "7 d", 604_800, 336),
];

export function chartRange(id: ChartRangeId): ChartRange {
  return CHART_RANGES.find((range) => range.id === id)!;
}

export function isChartRangeId(value: unknown): value is ChartRangeId {
  return CHART_RANGES.some((range) => range.id === value);
}
