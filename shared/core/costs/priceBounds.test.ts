import assert from "node:assert/strict";
import { test } from "node:test";
import { allowedMove, DEFAULT_DEVIATION, moveProblem, rangeProblem, suspectPrice } from "./priceBounds.ts";
import type { FeedPrice } from "./priceRound.ts";

const T = 1_700_000_000;
const usd = (units: number, updatedAt = T, decimals = 8): FeedPrice => ({ answer: BigInt(Math.round(units * 10 ** decimals)), decimals, updatedAt });

test("a price outside its pair's generous range is said; inside, or a pair without a range, is not", () => {
  assert.equal(rangeProblem(usd(3120.45), "ETH", "USD"), undefined);
  assert.match(rangeProblem(usd(0.5), "ETH", "USD") ?? "", /outside the range a ETH price in USD can have \(1 to 1000000\)/);
  assert.match(rangeProblem(usd(2_000_000), "eth", "usd") ?? "", /outside the range/);
  assert.equal(rangeProblem(usd(0.23), "POL", "USD"), undefined);
  assert.match(rangeProblem(usd(23_000), "MATIC", "USD") ?? "", /outside/);
  assert.equal(rangeProblem(usd(0.5), "ETH", "EUR"), undefined, "no range of its own: only the round's own checks apply");
  // decimals 36 of an 8-decimal answer: ETH at 3e-25 USD.
  assert.match(rangeProblem({ answer: 312_045_000_000n, decimals: 36 }, "ETH", "USD") ?? "", /outside/);
});

test("the allowed move: a tenth an hour at least, twenty deviations when that is more, growing with the time between rounds", () => {
  assert.equal(allowedMove(0.005, 60), 0.1);
  assert.equal(allowedMove(0.005, 7200), 0.2);
  assert.equal(allowedMove(DEFAULT_DEVIATION, 60), 0.2);
  assert.equal(allowedMove(0.02, 0), 0.4);
});

test("a move within the allowance passes; one beyond it, up or down alike, is said", () => {
  assert.equal(moveProblem(usd(3000), usd(3290, T + 60), 0.005), undefined, "+9.7% in a minute: a crash's move, allowed");
  assert.match(moveProblem(usd(3000), usd(3320, T + 60), 0.005) ?? "", /moved \+10\.7% from the last price used.*\(10% at most\)/);
  assert.match(moveProblem(usd(3000), usd(2700, T + 60), 0.005) ?? "", /moved -10\.0%/, "a tenth down is 11% the other way");
  assert.match(moveProblem(usd(3000), usd(30_000, T + 60), 0.005) ?? "", /moved 10\.0 times/);
  assert.match(moveProblem(usd(3000), usd(300, T + 60), 0.005) ?? "", /moved -90\.0%/);
  assert.equal(moveProblem(usd(3000), usd(3600, T + 3 * 3600), 0.005), undefined, "+20% over three hours");
});

test("suspect: out of range first, then moved too far, and nothing without a price before when in range", () => {
  const pair = { token: "ETH", currency: "USD", deviation: 0.005 };
  assert.equal(suspectPrice(usd(30_000), undefined, pair), undefined);
  assert.match(suspectPrice(usd(30_000, T + 60), usd(3000), pair) ?? "", /moved/);
  assert.match(suspectPrice(usd(0.3, T + 60), usd(3000), pair) ?? "", /outside the range/);
});
