// One observed base fee and when: a block's, or one row of a samples file (CONTRACT.md, "Outlook: wait or pay now").

export interface FeeSample {
  /** Unix seconds. */
  readonly timestamp: number;
  /** Wei. */
  readonly baseFee: bigint;
}
