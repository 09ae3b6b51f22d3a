/**
 * A block whose header the service saw, with the header's timestamp (unix seconds): exact, where the history's
 * other timestamps are interpolated between such anchors (CONTRACT.md, History).
 */
export interface BlockAnchor {
  readonly block: bigint;
  readonly timestamp: number;
}

/**
 * How far a header's timestamp may run ahead of the local clock and still be believed: chains do not run ahead of
 * time (a consensus client refuses blocks seconds early), so more is a lying endpoint or a clock minutes slow, and a
 * block dated in the future would date the blocks interpolated around it there too.
 */
export const MAX_HEADER_AHEAD_SECONDS = 120;
