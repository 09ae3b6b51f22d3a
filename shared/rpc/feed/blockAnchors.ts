import { type BlockAnchor, MAX_HEADER_AHEAD_SECONDS } from "../../core/history/blockAnchor.ts";
/** Anchors kept to check new ones against: the newest, by block number. */
export const HELD_ANCHORS = 64;

/** What became of a header offered to the anchors. */
export type AnchorVerdict = "new" | "seen" | "refused";

/**
 * The exact (block, timestamp) pairs a feed has seen in headers, checked against each other and the local clock, and
 * those not yet handed on in a report. An endpoint may be hostile, so a timestamp is refused when it runs more than
 * MAX_HEADER_AHEAD_SECONDS ahead of the local clock, or when it would make timestamps decrease as block numbers grow
 * among the anchors held. A header that gives a held block another timestamp is that block re-mined: it replaces the
 * held anchor, and the held anchors above it (of the branch it replaced) are dropped.
 */
export class BlockAnchors {
  /** Ascending by block, at most HELD_ANCHORS. */
  #held: BlockAnchor[] = [];
  #unreported: BlockAnchor[] = [];

  /** The anchor of the newest block held. */
  get newest(): BlockAnchor | undefined {
    return this.#held[this.#held.length - 1];
  }

  /** Offers a header seen at `nowMs` (epoch ms): "new" when kept and to be reported, "seen" when held already, else "refused". */
  offer(header: BlockAnchor, nowMs: number): AnchorVerdict {
    const { block, timestamp } = header;
    if (!Number.isSafeInteger(timestamp) || timestamp < 0 || timestamp > nowMs / 1000 + MAX_HEADER_AHEAD_SECONDS) return "refused";
    let at = this.#held.findIndex((held) => held.block >= block);
    if (at === -1) at = this.#held.length;
    const same = this.#held[at];
    const remined = same !== undefined && same.block === block;
    if (remined && same.timestamp === timestamp) return "seen";
    const below = this.#held[at - 1];
    const above = remined ? undefined : same;
    if ((below !== undefined && below.timestamp > timestamp) || (above !== undefined && above.timestamp < timestamp)) return "refused";
    const anchor = Object.freeze({ block, timestamp });
    if (remined) this.#held.splice(at);
    this.#held.splice(at, 0, anchor);
    if (this.#held.length > HELD_ANCHORS) this.#held.splice(0, this.#held.length - HELD_ANCHORS);
    this.#unreported.push(anchor);
    if (this.#unreported.length > HELD_ANCHORS) this.#unreported.splice(0, this.#unreported.length - HELD_ANCHORS);
    return "new";
  }

  /** The anchors kept since the previous call, in the order they were seen, frozen; [] when none. */
  takeUnreported(): readonly BlockAnchor[] {
    if (this.#unreported.length === 0) return NO_ANCHORS;
    const taken = Object.freeze(this.#unreported);
    this.#unreported = [];
    return taken;
  }
}

const NO_ANCHORS: readonly BlockAnchor[] = Object.freeze([]);
