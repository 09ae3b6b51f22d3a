import type { BlockAnchor } from "../../core/history/blockAnchor.ts";
import { ArrivalDelay } from "./arrivalDelay.ts";
import { BlockRhythm } from "./blockRhythm.ts";

export const MIN_POLL_INTERVAL_MS = 1000;
export const MAX_POLL_INTERVAL_MS = 12_000;
/** Slots a block may be late by and still be looked for with a retry; past them the chain has stalled or the endpoint lags. */
const SLOTS_WITH_RETRY = 2;
/** A poll that came too early for its block is retried this much (a fraction of the block time) later. */
const RETRY_AFTER = 1 / 8;
/** No two polls closer than this (a fraction of the block time), whatever the timing says. */
const MIN_GAP = 1 / 16;
/** A poll sent this little before its planned time (timers and clocks round to the ms) was sent as planned. */
const PLANNED_TOLERANCE_MS = 5;

/** Polls as often as blocks come, but not more than once a second nor less than every 12 s. */
export function pollIntervalFor(blockTimeMs: number): number {
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(MIN_POLL_INTERVAL_MS, Math.round(blockTimeMs)));
}

/**
 * Why a poll is due:
 * - fixed: on a fixed interval (a chain whose timestamps do not time its blocks, one not learned yet, or one told to);
 * - due: when the next block is expected at the endpoint;
 * - retry: shortly after a poll that came too early for it;
 * - late: once per block time while a block is overdue by more than SLOTS_WITH_RETRY slots (a stalled chain, a lagging
 *   endpoint).
 */
export type PollReason = "fixed" | "due" | "retry" | "late";

export interface PlannedPoll {
  /** Epoch ms; in the past means now. */
  readonly at: number;
  readonly reason: PollReason;
}

/** One poll as the feed made it. */
export interface PollOutcome {
  /** The endpoint polled (how late blocks appear is learned per endpoint). */
  readonly endpoint: string;
  /** Epoch ms when the request was sent, and when its answer arrived. */
  readonly sentAt: number;
  readonly answeredAt: number;
  /** The newest block's header the answer carried, when it carried one that was believed. */
  readonly header: BlockAnchor | undefined;
}

export interface PollScheduleOptions {
  /** The block time configured or assumed: the interval until the chain's own blocks tell their rhythm. */
  readonly assumedBlockTimeMs: number;
  /** Polls on this interval whatever the blocks say (tests, the demo, a baseline to compare with). */
  readonly fixedIntervalMs?: number;
}

/**
 * When to poll an http(s) endpoint next, from the polls made so far: pure, every time given by the caller.
 *
 * On a chain whose timestamps time its blocks (BlockRhythm), the next poll is due when the next block is expected at
 * the endpoint: the newest block's timestamp, plus the chain's spacing, plus the delay after which blocks appear at that
 * endpoint (ArrivalDelay, learned per endpoint). A poll that comes too early is retried an eighth of a block time
 * later; a block missed twice is looked for again at the next slot's time, and once per block time after
 * SLOTS_WITH_RETRY slots. Whatever the timing says, no two polls are closer than a sixteenth of a block time and no
 * three fall within one block time (never more than two polls per block time, never a busy loop). Other chains (blocks
 * under a second apart or irregular, timestamps at another pace than the clock, an endpoint whose answers carry no
 * header), and chains not learned yet, are polled on a fixed interval of one block time (1 to 12 s).
 */
export class PollSchedule {
  readonly #assumedBlockTimeMs: number;
  readonly #fixedIntervalMs: number | undefined;
  readonly #rhythm = new BlockRhythm();
  readonly #delays = new Map<string, ArrivalDelay>();
  /** The newest block's header seen, and the polls since: which slot after it is looked for, and how. */
  #newest: BlockAnchor | undefined;
  #slot = 1;
  #dueSentAt: number | undefined;
  #missedSentAt: number | undefined;
  /** The two latest polls' send times, newest last. */
  #sent: number[] = [];
  #endpoint: string | undefined;
  #withHeader = false;
  #planned: PlannedPoll | undefined;

  constructor(options: PollScheduleOptions) {
    if (!(options.assumedBlockTimeMs > 0)) throw new RangeError(`a block time is positive (got ${options.assumedBlockTimeMs} ms)`);
    if (options.fixedIntervalMs !== undefined && !(options.fixedIntervalMs > 0)) {
      throw new RangeError(`the polling interval must be positive (got ${options.fixedIntervalMs} ms)`);
    }
    this.#assumedBlockTimeMs = options.assumedBlockTimeMs;
    this.#fixedIntervalMs = options.fixedIntervalMs;
  }

  /**
   * The chain's block time as best known: learned from its blocks; while too few are seen, as assumed, or as the
   * timestamps of those seen say when their blocks are closer together (so that a chain assumed at 12 s that makes a
   * block every 2 s is learned within a few of its blocks, not a few times 12 s).
   */
  get blockTimeMs(): number {
    return this.#rhythm.spacingMs ?? Math.min(this.#assumedBlockTimeMs, this.#rhythm.timestampSpacingMs ?? Number.POSITIVE_INFINITY);
  }

  /** The interval of fixed polling (when the timestamps do not time the blocks). */
  get fixedIntervalMs(): number {
    return this.#fixedIntervalMs ?? pollIntervalFor(this.blockTimeMs);
  }

  /** Records a poll. One made before the planned time (the feed was woken for another reason) is not taken as planned. */
  record(poll: PollOutcome): void {
    const reason = this.#planned !== undefined && poll.sentAt >= this.#planned.at - PLANNED_TOLERANCE_MS ? this.#planned.reason : undefined;
    this.#planned = undefined;
    this.#sent = [...this.#sent.slice(-1), poll.sentAt];
    this.#endpoint = poll.endpoint;
    this.#withHeader = poll.header !== undefined;
    const { header } = poll;
    const newest = this.#newest;
    if (header !== undefined && (newest === undefined || header.block > newest.block)) {
      this.#found(poll, header, reason);
      return;
    }
    // Re-mined at the same height: the new header is the reference; nothing was learned about timing.
    if (header !== undefined && newest !== undefined && header.block === newest.block) this.#newest = header;
    this.#missedSentAt = poll.sentAt;
    if (reason === "due") this.#dueSentAt = poll.sentAt;
    else if (reason === "retry" || reason === "late") this.#nextSlot();
  }

  /** The next poll: when, and why. */
  next(): PlannedPoll {
    const planned = this.#plan();
    this.#planned = planned;
    return planned;
  }

  #plan(): PlannedPoll {
    const [earlier, last] = this.#sent.length === 2 ? this.#sent : [undefined, this.#sent[0]];
    const fixed = { at: last === undefined ? 0 : last + this.fixedIntervalMs, reason: "fixed" as const };
    if (this.#fixedIntervalMs !== undefined || !this.#withHeader || !this.#rhythm.timed) return fixed;
    const spacingMs = this.#rhythm.timestampSpacingMs;
    const delayMs = this.#endpoint === undefined ? undefined : this.#delays.get(this.#endpoint)?.delayMs;
    const newest = this.#newest;
    if (spacingMs === undefined || delayMs === undefined || newest === undefined || last === undefined) return fixed;

    const slotAt = (slot: number) => newest.timestamp * 1000 + slot * spacingMs + delayMs;
    let planned: PlannedPoll;
    if (this.#slot > SLOTS_WITH_RETRY) planned = { at: Math.max(slotAt(this.#slot), last + spacingMs), reason: "late" };
    else if (this.#dueSentAt === undefined) planned = { at: slotAt(this.#slot), reason: "due" };
    else planned = { at: this.#dueSentAt + RETRY_AFTER * spacingMs, reason: "retry" };
    // Never a busy loop, never more than two polls per block time.
    let at = Math.max(planned.at, last + MIN_GAP * spacingMs);
    if (earlier !== undefined) at = Math.max(at, earlier + spacingMs);
    return { at, reason: planned.reason };
  }

  #found(poll: PollOutcome, header: BlockAnchor, reason: PollReason | undefined): void {
    this.#rhythm.record(header, poll.answeredAt);
    const timestampMs = header.timestamp * 1000;
    let delay = this.#delays.get(poll.endpoint);
    if (delay === undefined) this.#delays.set(poll.endpoint, (delay = new ArrivalDelay()));
    delay.learn(
      {
        foundMs: poll.answeredAt - timestampMs,
        sentMs: poll.sentAt - timestampMs,
        missedMs: this.#missedSentAt === undefined ? undefined : this.#missedSentAt - timestampMs,
        onFixedInterval: reason === "fixed",
      },
      this.blockTimeMs,
    );
    this.#newest = header;
    this.#slot = 1;
    this.#dueSentAt = undefined;
    this.#missedSentAt = undefined;
  }

  #nextSlot(): void {
    this.#slot++;
    this.#dueSentAt = undefined;
  }
}
