// Bounds on what a price can be, beyond what makes a round unusable (priceRound.ts): a price outside a generous range
// for its pair, or one that moved more between two reads than its feed's market can, is suspect. A suspect price is
// not used until another endpoint of the chain confirms the same round (CONTRACT.md, "Costs in money").
import type { FeedPrice } from "./priceRound.ts";

/** The most decimals a feed may state: Chainlink's feeds have 8 or 18; more prices a token absurdly small. */
export const MAX_FEED_DECIMALS = 18;

/**
 * A generous range per pair, in units of the currency: far wider than the token ever traded, narrow enough to catch a
 * price off by orders of magnitude (a wrong scale, a lie). ETH traded above 80 USD since 2017 and never above 5,000 in
 * 2021-2025; POL (MATIC) between 0.003 and 3 USD since 2019. Pairs not listed have no range of their own.
 */
export const PAIR_RANGES: Readonly<Record<string, { readonly min: number; readonly max: number }>> = {
  "ETH/USD": { min: 1, max: 1_000_000 },
  "POL/USD": { min: 0.0001, max: 10_000 },
  "MATIC/USD": { min: 0.0001, max: 10_000 },
};

/**
 * The least a price may move between two reads before it is suspect, whatever its feed's deviation threshold: a
 * tenth. A market moves this much within a minute only in a crash, and then another endpoint confirms it.
 */
export const MIN_ALLOWED_MOVE = 0.1;
/** The allowed move is this many times the feed's deviation threshold (the move that makes it write a round), at least. */
export const MOVE_PER_DEVIATION = 20;
/** A feed without a known deviation threshold is taken to have this one (a fraction: 1%), the widest of the defaults'. */
export const DEFAULT_DEVIATION = 0.01;

/**
 * How far (a fraction) a price may move from one dated `elapsedS` before it: the larger of MIN_ALLOWED_MOVE and
 * MOVE_PER_DEVIATION deviations, for each hour between the two rounds (an hour at least).
 */
export function allowedMove(deviation: number, elapsedS: number): number {
  const perHour = Math.max(MIN_ALLOWED_MOVE, MOVE_PER_DEVIATION * deviation);
  return perHour * Math.max(1, elapsedS / 3600);
}

/** The price as a number of currency units (for ranges and ratios only: exact arithmetic keeps the bigint). */
export function priceUnits(price: Pick<FeedPrice, "answer" | "decimals">): number {
  return Number(price.answer) / 10 ** price.decimals;
}

/** Why the price is outside its pair's range (a sentence), or undefined when it is inside or the pair has none. */
export function rangeProblem(price: Pick<FeedPrice, "answer" | "decimals">, token: string, currency: string): string | undefined {
  const pair = `${token.toUpperCase()}/${currency.toUpperCase()}`;
  const range = PAIR_RANGES[pair];
  if (range === undefined) return undefined;
  const units = priceUnits(price);
  if (units >= range.min && units <= range.max) return undefined;
  return `it is outside the range a ${token} price in ${currency} can have (${range.min} to ${range.max})`;
}

/**
 * Why `next` moved too far from `previous`, the last price used (a clause), or undefined when it moved within what
 * the feed's `deviation` allows over the time between the two rounds. Moves are measured both ways alike: a price that
 * doubles and one that halves move as far.
 */
export function moveProblem(previous: FeedPrice, next: FeedPrice, deviation: number): string | undefined {
  const before = priceUnits(previous);
  const after = priceUnits(next);
  if (!(before > 0) || !(after > 0)) return undefined;
  const ratio = after > before ? after / before : before / after;
  const allowed = allowedMove(deviation, Math.max(0, next.updatedAt - previous.updatedAt));
  if (ratio <= 1 + allowed) return undefined;
  const percent = (after / before - 1) * 100;
  const said = Math.abs(percent) >= 100 ? `${(after / before).toPrecision(3)} times` : `${percent > 0 ? "+" : ""}${percent.toFixed(1)}%`;
  return `it moved ${said} from the last price used, more than the feed moves in that time (${Math.round(allowed * 100)}% at most)`;
}

/** Why a price that may be used as a round is suspect (a clause), or undefined: outside its range, or moved too far. */
export function suspectPrice(
  next: FeedPrice,
  previous: FeedPrice | undefined,
  pair: { token: string; currency: string; deviation: number },
): string | undefined {
  return rangeProblem(next, pair.token, pair.currency) ?? (previous === undefined ? undefined : moveProblem(previous, next, pair.deviation));
}
