// What the block chart and the bucket chart share, so that switching ranges keeps the plot where it was.

/** The right margin holds the statistics lines' plates ("busy 102.4", "p50 1,235"), so that they never cover the newest values. */
export const CHART_MARGIN = { top: 10, right: 92, bottom: 4, left: 4 } as const;
export const CHART_STYLE = { width: "100%", height: "100%" } as const;
/** The y axis' width: room for "1,235" or "0.0125". */
export const Y_AXIS_WIDTH_PX = 48;
/** Where recharts' x-axis tick lines and labels would be. */
export const TICK_SIZE_PX = 6;
export const TICK_MARGIN_PX = 2;
/** The next block's base fee, a dot at the plot's right edge (StatsChart), with a 2 px outline. */
export const NOW_DOT_RADIUS_PX = 4;
/**
 * Where the statistics lines' plates start, right of the plot: clear of the dot and its outline by 4 px, so that the
 * dot never touches a plate when the next base fee is near a line (it was 1 px into the p50 plate).
 */
export const PLATE_OFFSET_PX = NOW_DOT_RADIUS_PX + 1 + 4;
