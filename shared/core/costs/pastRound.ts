// Whether a past round of a price feed (getRoundData, read walking back from the newest round) may be kept as a point
// of the price's history. A past round is judged as the newest one is (roundProblem), and against the round after it,
// the one already believed: it must be the round asked for and no newer than that one. The first round that fails
// ends the walk: nothing older than a round that is not believed can be chained to what the chain has shown.
import { roundProblem, type FeedRound } from "./priceRound.ts";

/** A proxy's round id is its phase in the top 16 bits above a 64-bit round of that phase's aggregator (Chainlink's). */
const PHASE_SHIFT = 64n;
const AGGREGATOR_ROUND_MASK = (1n << PHASE_SHIFT) - 1n;

/**
 * The round before `roundId` within its phase, or undefined at the phase's first round: the rounds of an earlier phase
 * are another aggregator's, numbered on their own, and are not walked into.
 */
export function roundBefore(roundId: bigint): bigint | undefined {
  return (roundId & AGGREGATOR_ROUND_MASK) <= 1n ? undefined : roundId - 1n;
}

/** What getRoundData answered for one round id: the round, or that the call failed (a revert: no such round). */
export type PastRoundAnswer = { readonly round: FeedRound } | { readonly failed: string };

export type PastRoundVerdict =
  { readonly kind: "keep"; readonly updatedAt: number; readonly answer: bigint } | { readonly kind: "end"; readonly reason: string };

/**
 * Judges the answer for round `asked`, the round before one dated `newerUpdatedAt` that is already believed, read at
 * `nowS` from a feed of `decimals`.
 */
export function judgePastRound(asked: bigint, answer: PastRoundAnswer, newerUpdatedAt: number, decimals: number, nowS: number): PastRoundVerdict {
  if ("failed" in answer) return { kind: "end", reason: `the feed did not give round ${asked}: ${answer.failed}` };
  const { round } = answer;
  // An aggregator answers a round it never wrote with zeros (Chainlink's own aggregators revert instead).
  if (round.answer === 0n && round.updatedAt === 0n) return { kind: "end", reason: `the feed holds no round ${asked}` };
  if (round.roundId !== asked) return { kind: "end", reason: `asked for round ${asked}, the feed answered round ${round.roundId}` };
  const problem = roundProblem(round, decimals, nowS);
  if (problem !== undefined) return { kind: "end", reason: `round ${asked}: ${problem}` };
  const updatedAt = Number(round.updatedAt);
  if (updatedAt > newerUpdatedAt) return { kind: "end", reason: `round ${asked} is dated after the round that follows it` };
  if (round.startedAt > round.updatedAt) return { kind: "end", reason: `round ${asked} started after it was written` };
  return { kind: "keep", updatedAt, answer: round.answer };
}
