/**
 * What the chain has shown, and how an endpoint's claim about its head is judged against it. No single RPC answer is
 * the truth: an endpoint behind a load balancer answers from a lagging backend, a misconfigured one resyncs or serves
 * another chain, a buggy one claims a head far in the future. A claim is believed only when it fits what was already
 * believed:
 * - **ahead**: a head further ahead than the time since the chain's head was confirmed allows at the chain's rhythm
 *   (twice the blocks due, plus AHEAD_SLACK_BLOCKS for bursts and a stalled clock) is not believed;
 * - **behind**: a head more than the lag tolerance behind the confirmed head (the chain's reorganisation depth, or
 *   LAG_TOLERANCE_MS of blocks if more) is not believed; one within it is believed but brings nothing new;
 * - **rewound**: an answer giving other fees to blocks deeper below the confirmed head than the chain can reorganise
 *   is not believed (a resync onto another branch, or another chain's blocks).
 * The confirmed head only moves forward, and only through believed answers (`confirm`).
 */

/** Blocks a head may run ahead beyond twice those due since the confirmation: bursts, timers that fired late. */
export const AHEAD_SLACK_BLOCKS = 1_024;
/** An endpoint lagging behind the confirmed head by up to this long (in blocks at the chain's rhythm) is believed. */
export const LAG_TOLERANCE_MS = 120_000;
/** How deep a chain may reorganise when nothing else is known of it: two epochs of Ethereum (64 slots). */
export const DEFAULT_REORG_DEPTH_BLOCKS = 64;

export type SuspectReason = "ahead" | "behind" | "rewound";

/** What a claim about the chain is worth. */
export type HeadVerdict = { readonly believed: true } | { readonly believed: false; readonly reason: SuspectReason; readonly explanation: string };

export interface ChainHeadOptions {
  /** The chain's block time, as configured or learned (the shorter wins: it allows more). */
  readonly blockTimeMs: number;
  /** How many blocks deep the chain may reorganise. */
  readonly reorgDepthBlocks: number;
}

const BELIEVED: HeadVerdict = Object.freeze({ believed: true });

export class ChainHead {
  readonly #options: ChainHeadOptions;
  #block: bigint | undefined;
  /** Epoch ms at which `#block` was confirmed (or, for a head taken from held history, its block's time). */
  #atMs = 0;

  constructor(options: ChainHeadOptions) {
    if (!(options.blockTimeMs > 0)) throw new RangeError(`a block time is positive (got ${options.blockTimeMs} ms)`);
    if (!Number.isSafeInteger(options.reorgDepthBlocks) || options.reorgDepthBlocks < 1) {
      throw new RangeError(`a reorganisation depth is a positive number of blocks (got ${options.reorgDepthBlocks})`);
    }
    this.#options = options;
  }

  /** The newest block the chain is confirmed to have; undefined before the first believed answer. */
  get block(): bigint | undefined {
    return this.#block;
  }

  /** Blocks behind the confirmed head that an endpoint may lag and still be believed. */
  get lagToleranceBlocks(): number {
    return Math.max(this.#options.reorgDepthBlocks, Math.ceil(LAG_TOLERANCE_MS / this.#options.blockTimeMs));
  }

  /** The highest head believable at `nowMs`; undefined before the first believed answer. */
  aheadLimit(nowMs: number, blockTimeMs = this.#options.blockTimeMs): bigint | undefined {
    if (this.#block === undefined) return undefined;
    const stepMs = Math.max(1, Math.min(blockTimeMs, this.#options.blockTimeMs));
    const due = Math.ceil(Math.max(0, nowMs - this.#atMs) / stepMs);
    return this.#block + BigInt(2 * due + AHEAD_SLACK_BLOCKS);
  }

  /** Judges an endpoint's newest block; `blockTimeMs` is the rhythm learned from the chain's own blocks, if any. */
  judgeHead(claimed: bigint, nowMs: number, blockTimeMs?: number): HeadVerdict {
    const held = this.#block;
    if (held === undefined) return BELIEVED;
    const limit = this.aheadLimit(nowMs, blockTimeMs)!;
    if (claimed > limit) {
      return suspect(
        "ahead",
        `its head ${claimed} is ${claimed - held} blocks ahead of block ${held}, the newest the chain has shown, ` +
          `more than ${Math.round((nowMs - this.#atMs) / 1000)} s at the chain's rhythm allow`,
      );
    }
    if (claimed < held - BigInt(this.lagToleranceBlocks)) {
      return suspect("behind", `its head ${claimed} is ${held - claimed} blocks behind block ${held}, the newest the chain has shown`);
    }
    return BELIEVED;
  }

  /** Judges an answer that gives `rewrittenBlock` (held) another base fee than the one held. */
  judgeRewrite(rewrittenBlock: bigint): HeadVerdict {
    const held = this.#block;
    if (held === undefined) return BELIEVED;
    const depth = held - rewrittenBlock + 1n;
    if (depth > BigInt(this.#options.reorgDepthBlocks)) {
      return suspect(
        "rewound",
        `it gives block ${rewrittenBlock} another base fee, ${depth} blocks below the chain's head, deeper than the chain ` +
          `reorganises (${this.#options.reorgDepthBlocks} blocks)`,
      );
    }
    return BELIEVED;
  }

  /** A believed answer showed `block` at `nowMs`: the head moves forward to it (never back). */
  confirm(block: bigint, nowMs: number): void {
    if (this.#block !== undefined && block <= this.#block) return;
    this.#block = block;
    this.#atMs = nowMs;
  }

  /**
   * Takes the newest block of the history held from before (a restart) as shown by the chain, at its block's time
   * `blockTimeMs` (epoch ms): live answers are judged against it as against any head the chain has shown.
   */
  seed(block: bigint, blockAtMs: number): void {
    if (this.#block !== undefined) return;
    this.#block = block;
    this.#atMs = blockAtMs;
  }
}

function suspect(reason: SuspectReason, explanation: string): HeadVerdict {
  return Object.freeze({ believed: false, reason, explanation });
}
