import assert from "node:assert/strict";
import { test } from "node:test";
import { allowedRoundAgeS, judgeRound, sameRound, type FeedRound } from "./priceRound.ts";

const NOW = 1_700_000_000;
const round = (answer: bigint, updatedAt = NOW - 10): FeedRound => ({ roundId: 1n, answer, startedAt: BigInt(updatedAt), updatedAt: BigInt(updatedAt) });

test("a fresh positive answer is a price", () => {
  assert.deepEqual(judgeRound(round(312_045_000_000n), 8, 3600, 60, NOW), { ok: true, price: { answer: 312_045_000_000n, decimals: 8, updatedAt: NOW - 10 } });
});

test("a round older than the heartbeat allows is stale, one just within is not", () => {
  const allowed = allowedRoundAgeS(3600, 60);
  assert.equal(allowed, 4020);
  assert.equal(judgeRound(round(1n, NOW - allowed), 8, 3600, 60, NOW).ok, true);
  const stale = judgeRound(round(1n, NOW - allowed - 1), 8, 3600, 60, NOW);
  assert.equal(stale.ok, false);
  assert.match(stale.ok ? "" : stale.problem, /stale/);
});

const verdictOf = (verdict: ReturnType<typeof judgeRound>) => (verdict.ok ? "" : verdict.problem);

test("zero, negative, absurd, incomplete and future rounds are refused, each saying why", () => {
  const problem = (r: FeedRound) => {
    const verdict = judgeRound(r, 8, 3600, 60, NOW);
    assert.equal(verdict.ok, false);
    return verdict.ok ? "" : verdict.problem;
  };
  assert.match(problem(round(0n)), /zero/);
  assert.match(problem(round(-5n)), /negative/);
  assert.match(problem(round(10n ** 21n)), /no gas token/);
  assert.match(verdictOf(judgeRound(round(312_045_000_000n), 36, 3600, 60, NOW)), /too small for any gas token/, "ETH at 3e-25 USD");
  assert.equal(judgeRound(round(1_000_000n), 18, 3600, 60, NOW).ok, true, "10^-12 of a currency is the least a price may be");
  assert.match(problem(round(1n, 0)), /not complete/);
  assert.match(problem(round(1n, NOW + 3600)), /future/);
});

test("a round dated 290 s ahead is refused (it would be stored in the future); one a few seconds ahead is a price", () => {
  const ahead = judgeRound(round(1n, NOW + 290), 8, 3600, 60, NOW);
  assert.equal(ahead.ok, false);
  assert.match(ahead.ok ? "" : ahead.problem, /dated in the future \(290 s ahead of this machine's clock\)/);
  assert.equal(judgeRound(round(1n, NOW + 5), 8, 3600, 60, NOW).ok, true);
});

test("two reads tell the same round only with its id, answer and date alike; none read before is never the same", () => {
  const read = round(312_045_000_000n);
  assert.equal(sameRound({ ...read }, read), true);
  assert.equal(sameRound({ ...read, answer: read.answer * 10n }, read), false);
  assert.equal(sameRound({ ...read, updatedAt: read.updatedAt + 1n }, read), false);
  assert.equal(sameRound({ ...read, roundId: 2n }, read), false);
  assert.equal(sameRound(undefined, read), false);
});
