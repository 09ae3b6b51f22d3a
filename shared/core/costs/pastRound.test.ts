import assert from "node:assert/strict";
import { test } from "node:test";
import { judgePastRound, roundBefore, type PastRoundAnswer } from "./pastRound.ts";

const NOW = 1_700_000_000;
const NEWER = NOW - 600;
const PHASE_6 = 6n << 64n;
const answer = (roundId: bigint, price: bigint, updatedAt: number, startedAt = updatedAt): PastRoundAnswer => ({
  round: { roundId, answer: price, startedAt: BigInt(startedAt), updatedAt: BigInt(updatedAt) },
});
const reason = (verdict: ReturnType<typeof judgePastRound>) => (verdict.kind === "end" ? verdict.reason : "kept");

test("the round before another is walked within its phase and not into the phase before", () => {
  assert.equal(roundBefore(PHASE_6 + 300n), PHASE_6 + 299n);
  assert.equal(roundBefore(PHASE_6 + 2n), PHASE_6 + 1n);
  assert.equal(roundBefore(PHASE_6 + 1n), undefined, "round 1 of a phase is its first");
  assert.equal(roundBefore(5n), 4n, "an aggregator read directly (no proxy) numbers its rounds from 1");
  assert.equal(roundBefore(1n), undefined);
});

test("a past round that is the one asked for, a price, and not newer than the round after it is kept", () => {
  assert.deepEqual(judgePastRound(PHASE_6 + 9n, answer(PHASE_6 + 9n, 187_850_000_000n, NEWER - 3600), NEWER, 8, NOW), {
    kind: "keep",
    updatedAt: NEWER - 3600,
    answer: 187_850_000_000n,
  });
  assert.equal(judgePastRound(9n, answer(9n, 1n, NEWER), NEWER, 8, NOW).kind, "keep", "two rounds may be written in the same second");
});

test("each answer not to be believed ends the walk, saying why", () => {
  const asked = PHASE_6 + 9n;
  assert.match(reason(judgePastRound(asked, { failed: "execution reverted: No data present" }, NEWER, 8, NOW)), /did not give round .*No data present/);
  assert.match(reason(judgePastRound(asked, answer(asked, 0n, 0), NEWER, 8, NOW)), /holds no round/);
  assert.match(reason(judgePastRound(asked, answer(asked + 1n, 5n, NEWER - 10), NEWER, 8, NOW)), /answered round/);
  assert.match(reason(judgePastRound(asked, answer(asked, 0n, NEWER - 10), NEWER, 8, NOW)), /zero/);
  assert.match(reason(judgePastRound(asked, answer(asked, -4n, NEWER - 10), NEWER, 8, NOW)), /negative/);
  assert.match(reason(judgePastRound(asked, answer(asked, 10n ** 21n, NEWER - 10), NEWER, 8, NOW)), /no gas token/);
  assert.match(reason(judgePastRound(asked, answer(asked, 5n, 0), NEWER, 8, NOW)), /not complete/);
  assert.match(reason(judgePastRound(asked, answer(asked, 5n, NEWER + 1), NEWER, 8, NOW)), /dated after the round that follows/);
  assert.match(reason(judgePastRound(asked, answer(asked, 5n, NEWER - 10, NEWER - 5), NEWER, 8, NOW)), /started after/);
});
