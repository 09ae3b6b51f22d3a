import type { BlockAnchor } from "../core/history/blockAnchor.ts";

export type { BlockAnchor };

/**
 * The exact timestamps a backfill knows, sorted by block: those it was given (the live feed's, the store's) and those
 * it fetched. Timestamps never decrease with the block number on any chain (equal is allowed: several L2 blocks share
 * a second), so a new anchor that breaks that order with a known one is a lie of the endpoint that sent it.
 */
export class BackfillAnchors {
  /** Oldest block first; one per block. */
  readonly #anchors: BlockAnchor[] = [];

  constructor(anchors: Iterable<BlockAnchor> = []) {
    for (const anchor of anchors) {
      const conflict = this.conflictWith(anchor);
      if (conflict !== undefined) throw new RangeError(`the known block timestamps contradict each other: ${conflict}`);
      this.add(anchor);
    }
  }

  /** Oldest block first. */
  get all(): readonly BlockAnchor[] {
    return this.#anchors;
  }

  get oldest(): BlockAnchor | undefined {
    return this.#anchors[0];
  }

  get newest(): BlockAnchor | undefined {
    return this.#anchors[this.#anchors.length - 1];
  }

  /** Why `anchor` cannot be true given the anchors known, or undefined when it fits. */
  conflictWith(anchor: BlockAnchor): string | undefined {
    const at = this.#indexOf(anchor.block);
    const same = this.#anchors[at];
    if (same?.block === anchor.block) {
      return same.timestamp === anchor.timestamp ? undefined : `block ${anchor.block} has timestamp ${same.timestamp}, not ${anchor.timestamp}`;
    }
    const older = this.#anchors[at - 1];
    if (older && older.timestamp > anchor.timestamp) {
      return `block ${anchor.block} at ${anchor.timestamp} would be older than block ${older.block} at ${older.timestamp}`;
    }
    const newer = this.#anchors[at];
    if (newer && newer.timestamp < anchor.timestamp) {
      return `block ${anchor.block} at ${anchor.timestamp} would be newer than block ${newer.block} at ${newer.timestamp}`;
    }
    return undefined;
  }

  /** Adds an anchor that fits (check with conflictWith first); one already known is kept once. */
  add(anchor: BlockAnchor): void {
    const at = this.#indexOf(anchor.block);
    if (this.#anchors[at]?.block === anchor.block) return;
    this.#anchors.splice(at, 0, { block: anchor.block, timestamp: anchor.timestamp });
  }

  /** The newest anchor whose timestamp is before `seconds`, if any. */
  newestBefore(seconds: number): BlockAnchor | undefined {
    // Timestamps are sorted like blocks, so the anchors before `seconds` are a prefix.
    let low = 0;
    let high = this.#anchors.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#anchors[middle]!.timestamp < seconds) low = middle + 1;
      else high = middle;
    }
    return this.#anchors[low - 1];
  }

  /** The position of `block`, or of the first anchor after it. */
  #indexOf(block: bigint): number {
    let low = 0;
    let high = this.#anchors.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#anchors[middle]!.block < block) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
