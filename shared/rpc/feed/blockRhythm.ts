import type { BlockAnchor } from "../../core/history/blockAnchor.ts";

/** Headers kept to learn the rhythm from: the newest, by block number. */
export const RHYTHM_HEADERS = 17;
/** Timestamps count whole seconds: they cannot time blocks that come closer together than this. */
export const MIN_TIMED_SPACING_MS = 1000;
/** How far a block's spacing may stray from the usual one and still count as regular (a fraction of it). */
const REGULAR_SPREAD = 0.25;
/** The share of spacings that must be regular for the timestamps to be trusted. */
const REGULAR_SHARE = 3 / 4;
/** How far the timestamps' pace may differ from the local clock's (a share) before they are not trusted to time blocks. */
const PACE_TOLERANCE = 0.25;

/** Gaps between headers seen before the timestamps are trusted: one gap may span a pause (a node idle since its genesis). */
const MIN_GAPS_TO_TIME = 3;
/** A gap between headers longer than this many times the usual one per block is a pause, not the chain's rhythm. */
const PAUSE_FACTOR = 3;

/** Between two consecutive headers seen: how many blocks, and how long by their timestamps and by the local clock. */
interface Gap {
  readonly blocks: number;
  readonly timestampMs: number;
  readonly clockMs: number;
}

/** A header as the rhythm keeps it: its block, its timestamp in ms, and when it was first seen (epoch ms). */
interface SeenHeader {
  readonly block: bigint;
  readonly timestampMs: number;
  readonly seenAt: number;
}

/**
 * A chain's rhythm, learned from its own headers: how far apart its blocks are by their timestamps and by the local
 * clock (when each was first seen), and whether the timestamps tell when the next block comes. They do on chains that
 * produce blocks in slots (Ethereum's 12 s, OP-stack chains' 2 s); they do not on chains whose blocks come closer than
 * a second or at irregular times (Arbitrum's), nor on a node whose timestamps run at another pace than the clock.
 */
export class BlockRhythm {
  /** Ascending by block, distinct blocks, the newest RHYTHM_HEADERS. */
  readonly #seen: SeenHeader[] = [];

  /** Records a header first seen at `seenAt` (epoch ms). Headers not newer than the newest recorded teach nothing new. */
  record(header: BlockAnchor, seenAt: number): void {
    const newest = this.#seen[this.#seen.length - 1];
    if (newest !== undefined && header.block <= newest.block) return;
    this.#seen.push({ block: header.block, timestampMs: header.timestamp * 1000, seenAt });
    if (this.#seen.length > RHYTHM_HEADERS) this.#seen.shift();
  }

  /** Milliseconds per block by the timestamps: the median over consecutive headers seen; undefined before two. */
  get timestampSpacingMs(): number | undefined {
    const spacings = this.#timestampSpacings();
    return spacings.length === 0 ? undefined : median(spacings);
  }

  /**
   * Milliseconds per block by the local clock (when each header was first seen): the time between the headers seen over
   * the blocks between them, leaving out gaps more than PAUSE_FACTOR times the usual per block (the chain halted, the
   * computer slept), which would skew it; undefined before two headers.
   */
  get clockSpacingMs(): number | undefined {
    const gaps = this.#gapsWithoutPauses();
    return gaps.length === 0 ? undefined : sum(gaps, (gap) => gap.clockMs) / sum(gaps, (gap) => gap.blocks);
  }

  /**
   * Whether the timestamps time the blocks: seen over MIN_GAPS_TO_TIME gaps at least, a second or more apart, at least
   * three quarters of the spacings within a quarter of the usual one, and keeping pace with the local clock.
   */
  get timed(): boolean {
    const spacings = this.#timestampSpacings();
    if (spacings.length < MIN_GAPS_TO_TIME) return false;
    const usual = median(spacings);
    if (usual < MIN_TIMED_SPACING_MS) return false;
    const regular = spacings.filter((spacing) => Math.abs(spacing - usual) <= REGULAR_SPREAD * usual).length;
    if (regular < REGULAR_SHARE * spacings.length) return false;
    // The pace: the local clock's time against the timestamps' over the same gaps (a missed slot counts in both).
    const gaps = this.#gapsWithoutPauses();
    const timestampMs = sum(gaps, (gap) => gap.timestampMs);
    return timestampMs > 0 && Math.abs(sum(gaps, (gap) => gap.clockMs) / timestampMs - 1) <= PACE_TOLERANCE;
  }

  /**
   * The blocks' spacing in ms as best known: by the timestamps when they time blocks, else by the clock; undefined
   * before MIN_GAPS_TO_TIME gaps (a single gap may span a pause).
   */
  get spacingMs(): number | undefined {
    if (this.#seen.length <= MIN_GAPS_TO_TIME) return undefined;
    return this.timed ? this.timestampSpacingMs : this.clockSpacingMs;
  }

  /** Per block, between each two consecutive headers seen, by their timestamps. */
  #timestampSpacings(): number[] {
    return this.#gaps().map((gap) => gap.timestampMs / gap.blocks);
  }

  /** The gaps but those that span a pause: more than PAUSE_FACTOR times the usual time per block by the local clock. */
  #gapsWithoutPauses(): Gap[] {
    const gaps = this.#gaps();
    if (gaps.length === 0) return gaps;
    const usual = median(gaps.map((gap) => gap.clockMs / gap.blocks));
    return gaps.filter((gap) => gap.clockMs / gap.blocks <= PAUSE_FACTOR * usual);
  }

  /** Between each two consecutive headers seen: the blocks, and the time between them by the timestamps and the clock. */
  #gaps(): Gap[] {
    const gaps: Gap[] = [];
    for (let i = 1; i < this.#seen.length; i++) {
      const earlier = this.#seen[i - 1]!;
      const later = this.#seen[i]!;
      gaps.push({ blocks: Number(later.block - earlier.block), timestampMs: later.timestampMs - earlier.timestampMs, clockMs: later.seenAt - earlier.seenAt });
    }
    return gaps;
  }
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((total, item) => total + value(item), 0);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
