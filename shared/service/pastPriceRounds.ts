// The rounds a price feed wrote before the service first read it, read back with getRoundData so that past ranges can
// be shown in money from the first start on: walking back from the newest round, a batch of rounds at a time off the
// request path, each judged against the round after it (core/costs/pastRound.ts), until the history horizon, the
// points already held, the start of the feed's phase, the first round not believed, or the bound on rounds read. A
// point held whose round reads otherwise is replaced, and then the walk goes on past the points held until one agrees.
import { formatUnits } from "viem";
import { judgePastRound, roundBefore, type PastRoundAnswer } from "../core/costs/pastRound.ts";
import { errorLine } from "../rpc/connection/errorLine.ts";
import type { PricePoint } from "../wire/costs.ts";

/** Rounds asked per JSON-RPC batch (rpcConnection's MAX_BATCH_CALLS). */
export const PAST_ROUNDS_PER_BATCH = 32;
/** The most rounds read back per feed and start: a week of a round a minute, as many as PricePoints keeps. */
export const MAX_PAST_ROUNDS = 7 * 24 * 60;
/** Kept rounds are this far apart at least, as live reads are (one a minute): a burst of rounds adds one point. */
const MIN_POINT_SPACING_S = 60;

export interface PastRoundsWalk {
  /** The newest round, already judged and kept by the live read. */
  readonly latest: { readonly roundId: bigint; readonly updatedAt: number };
  readonly decimals: number;
  /** Read back to the round in force at horizonStartS, or only the rounds after afterS (points held since before). */
  readonly wanted: { readonly horizonStartS: number; readonly afterS: number | undefined };
  readonly nowS: number;
  readonly maxRounds?: number;
  readBatch(roundIds: readonly bigint[]): Promise<readonly PastRoundAnswer[]>;
  /** Each batch's rounds kept, newest first, their values written as /costs writes a price. */
  keep(points: readonly PricePoint[]): void;
  /** The value of the point held at exactly this time, if any: a round read back that differs replaces it. */
  heldAt?(timeS: number): string | undefined;
  /** Resolves true when the next batch may be read, false when the walk is to stop (the service stops). */
  pause(): Promise<boolean>;
}

export interface PastRoundsOutcome {
  readonly roundsRead: number;
  readonly pointsKept: number;
  /** Of them, the points held that their rounds read otherwise (replaced). */
  readonly pointsReplaced: number;
  /** The oldest round kept (unix s), when one was. */
  readonly oldestS: number | undefined;
  /** Why the walk ended, in words for the log; `expected` is false when it ended on a round not believed or a failure. */
  readonly end: string;
  readonly expected: boolean;
  /** The endpoint failed a batch (not a round): the same walk may succeed later. */
  readonly retry: boolean;
}

export async function walkPastRounds(walk: PastRoundsWalk): Promise<PastRoundsOutcome> {
  const maxRounds = walk.maxRounds ?? MAX_PAST_ROUNDS;
  let next = roundBefore(walk.latest.roundId);
  let newerAt = walk.latest.updatedAt;
  let lastKeptAt = walk.latest.updatedAt;
  let roundsRead = 0;
  let pointsKept = 0;
  let pointsReplaced = 0;
  /** A point held read otherwise: the points held are not believed until one agrees with its round again. */
  let contradicted = false;
  let oldestS: number | undefined;
  const outcome = (end: string, expected: boolean, retry = false): PastRoundsOutcome => ({
    roundsRead,
    pointsKept,
    pointsReplaced,
    oldestS,
    end,
    expected,
    retry,
  });
  for (;;) {
    if (next === undefined) return outcome("the feed's current phase begins there (earlier rounds are another aggregator's)", true);
    if (roundsRead >= maxRounds) return outcome(`${maxRounds} rounds were read back, the most read per start`, true);
    const ids: bigint[] = [];
    for (let id: bigint | undefined = next; id !== undefined && ids.length < Math.min(PAST_ROUNDS_PER_BATCH, maxRounds - roundsRead); id = roundBefore(id)) {
      ids.push(id);
    }
    let answers: readonly PastRoundAnswer[];
    try {
      answers = await walk.readBatch(ids);
    } catch (error) {
      return outcome(`the feed's past rounds could not be read: ${errorLine(error)}`, false, true);
    }
    const kept: PricePoint[] = [];
    const keepBatch = () => {
      if (kept.length === 0) return;
      walk.keep(kept);
      pointsKept += kept.length;
      oldestS = kept.at(-1)!.time;
    };
    for (const [index, id] of ids.entries()) {
      roundsRead += 1;
      const verdict = judgePastRound(id, answers[index] ?? { failed: "the endpoint left the call unanswered" }, newerAt, walk.decimals, walk.nowS);
      if (verdict.kind === "end") {
        keepBatch();
        return outcome(verdict.reason, false);
      }
      newerAt = verdict.updatedAt;
      const value = formatUnits(verdict.answer, walk.decimals);
      const held = walk.heldAt?.(verdict.updatedAt);
      const differs = held !== undefined && held !== value;
      if (differs) contradicted = true;
      const reachedHeld = walk.wanted.afterS !== undefined && verdict.updatedAt <= walk.wanted.afterS;
      if (reachedHeld && !contradicted) {
        keepBatch();
        return outcome("the price points held from before were reached", true);
      }
      if (reachedHeld && held === value) {
        keepBatch();
        return outcome("the price points held from before were reached where they agree with the feed again", true);
      }
      const reachedHorizon = verdict.updatedAt <= walk.wanted.horizonStartS;
      // The round in force at the horizon's start is kept whatever its spacing: the range's first price; a point held
      // that its round reads otherwise is replaced whatever its spacing.
      if (differs || reachedHorizon || lastKeptAt - verdict.updatedAt >= MIN_POINT_SPACING_S) {
        kept.push({ time: verdict.updatedAt, value });
        lastKeptAt = verdict.updatedAt;
        if (differs) pointsReplaced += 1;
      }
      if (reachedHorizon) {
        keepBatch();
        return outcome("the history horizon's start was reached", true);
      }
    }
    keepBatch();
    next = roundBefore(ids.at(-1)!);
    if (!(await walk.pause())) return outcome("the service stopped", true);
  }
}
