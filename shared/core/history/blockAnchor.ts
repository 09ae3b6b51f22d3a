/**
 * A block whose header the service saw, with the header's timestamp (unix seconds): exact, where the history's
 * other timestamps are interpolated between such anchors (CONTRACT.md, History).
 */
export interface BlockAnchor {
  readonly block: bigint;
  readonly timestamp: number;
}
