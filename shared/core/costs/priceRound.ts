// Whether a price feed's round may be used: the one judge of a Chainlink answer (CONTRACT.md, "Costs in money").

/** What `latestRoundData()` returned, decoded. */
export interface FeedRound {
  readonly roundId: bigint;
  readonly answer: bigint;
  readonly startedAt: bigint;
  readonly updatedAt: bigint;
}

/** Whether two reads tell the same round: its id, its answer and its date alike. */
export function sameRound(a: FeedRound | undefined, b: FeedRound): boolean {
  return a !== undefined && a.roundId === b.roundId && a.answer === b.answer && a.updatedAt === b.updatedAt;
}

/** A usable price: the feed's answer and its scale, and when the round was written. */
export interface FeedPrice {
  readonly answer: bigint;
  readonly decimals: number;
  /** Unix seconds of the round (its updatedAt). */
  readonly updatedAt: number;
}

export type RoundVerdict = { readonly ok: true; readonly price: FeedPrice } | { readonly ok: false; readonly problem: string };

/** No gas token is worth more than this many units of any currency: an answer above it is garbage, not a price. */
const MAX_PRICE_UNITS = 10n ** 12n;
/** No gas token is worth less than 10^-12 units of any currency: an answer below it is a wrong scale, not a price. */
const MIN_PRICE_FRACTION = 10n ** 12n;
/**
 * A round dated more than this ahead of our clock is not believed (nor stored: a point dated ahead would keep the next
 * honest round out). Block times run a few seconds ahead of a synchronised clock at most.
 */
export const FUTURE_SLACK_S = 30;

/**
 * The age a round may have: its feed's heartbeat, a tenth more for a heartbeat round written late, and the time
 * between two reads (the price is read once a minute, so an answer is up to that much older when served).
 */
export function allowedRoundAgeS(heartbeatS: number, readIntervalS: number): number {
  return heartbeatS + Math.ceil(heartbeatS / 10) + readIntervalS;
}

/** Judges a round read at `nowS` (unix seconds) from a feed of `decimals` whose heartbeat is `heartbeatS`. */
export function judgeRound(round: FeedRound, decimals: number, heartbeatS: number, readIntervalS: number, nowS: number): RoundVerdict {
  const problem = roundProblem(round, decimals, nowS);
  if (problem !== undefined) return { ok: false, problem };
  const updatedAt = Number(round.updatedAt);
  const ageS = nowS - updatedAt;
  const allowed = allowedRoundAgeS(heartbeatS, readIntervalS);
  if (ageS > allowed) {
    return { ok: false, problem: `the price is stale: the feed's newest round is ${describeAge(ageS)} old, its heartbeat allows ${describeAge(allowed)}` };
  }
  return { ok: true, price: { answer: round.answer, decimals, updatedAt } };
}

/**
 * What makes any round unusable, latest or past: an answer that is no price (zero, negative, beyond any gas token's),
 * a round not complete, or one dated in the future. Undefined for a round that may be a price.
 */
export function roundProblem(round: FeedRound, decimals: number, nowS: number): string | undefined {
  if (round.answer === 0n) return "the price feed answered zero";
  if (round.answer < 0n) return `the price feed answered a negative price (${round.answer})`;
  if (round.answer > MAX_PRICE_UNITS * 10n ** BigInt(decimals)) return "the price feed answered a price no gas token has";
  if (round.answer * MIN_PRICE_FRACTION < 10n ** BigInt(decimals)) return "the price feed answered a price too small for any gas token";
  if (round.updatedAt === 0n) return "the price feed's round is not complete (updatedAt 0)";
  const updatedAt = Number(round.updatedAt);
  if (!Number.isSafeInteger(updatedAt) || updatedAt > nowS + FUTURE_SLACK_S) {
    return Number.isSafeInteger(updatedAt)
      ? `the price feed's round is dated in the future (${updatedAt - nowS} s ahead of this machine's clock)`
      : "the price feed's round is dated in the future";
  }
  return undefined;
}

function describeAge(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}
