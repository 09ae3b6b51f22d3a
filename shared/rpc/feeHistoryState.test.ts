import assert from "node:assert/strict";
import { test } from "node:test";
import { blockTipsOf } from "../core/fees/recentTips.ts";
import { FeeHistoryState } from "./feeHistoryState.ts";
import type { FeeHistoryAnswer } from "./parseRpcAnswers.ts";

const answer = (oldestBlock: bigint, baseFeesWei: bigint[], nextBaseFeeWei?: bigint, extra: Partial<FeeHistoryAnswer> = {}): FeeHistoryAnswer => ({
  oldestBlock,
  baseFeesWei,
  nextBaseFeeWei,
  ...extra,
});

function state(windowBlocks = 1000) {
  return new FeeHistoryState({ chainId: 7, windowBlocks, blockTimeMs: 2000 });
}

test("no snapshot before the first answer; the first makes one, with the chain's id and block time", () => {
  const fees = state();
  assert.equal(fees.snapshot, undefined);
  assert.equal(fees.newestBlock, undefined);
  assert.equal(fees.apply(answer(10n, [100n, 200n, 300n], 350n)), true);
  const snapshot = fees.snapshot!;
  assert.deepEqual(
    {
      chainId: snapshot.chainId,
      newestBlock: snapshot.newestBlock,
      historyWei: snapshot.historyWei,
      current: snapshot.currentBaseFeeWei,
      blockTimeMs: snapshot.blockTimeMs,
    },
    { chainId: 7, newestBlock: 12n, historyWei: [100n, 200n, 300n], current: 350n, blockTimeMs: 2000 },
  );
  assert.equal(fees.newestBlock, 12n);
  assert.equal(fees.blocksHeld, 3);
});

test("an answer that only confirms what is held changes nothing and keeps the same snapshot object", () => {
  const fees = state();
  fees.apply(answer(10n, [100n, 200n, 300n], 350n));
  const before = fees.snapshot;
  assert.equal(fees.apply(answer(11n, [200n, 300n], 350n)), false);
  assert.equal(fees.snapshot, before);
});

test("each kind of change is one: a new block, a re-mined block, the next base fee, the tips", () => {
  const fees = state();
  fees.apply(answer(10n, [100n, 200n, 300n], 350n));
  const changes: [string, FeeHistoryAnswer][] = [
    ["a new block", answer(12n, [300n, 400n], 350n)],
    ["a re-mined block", answer(12n, [300n, 900n], 350n)],
    ["the next base fee", answer(12n, [300n, 900n], 360n)],
    ["the tips", answer(12n, [300n, 900n], 360n, { tips: [blockTipsOf(13n, [1n, 2n, 3n])] })],
  ];
  for (const [what, change] of changes) {
    const before = fees.snapshot;
    assert.equal(fees.apply(change), true, what);
    assert.notEqual(fees.snapshot, before, `${what}: a new snapshot`);
    assert.ok(Object.isFrozen(fees.snapshot), what);
  }
  const snapshot = fees.snapshot!;
  assert.deepEqual(snapshot.historyWei, [100n, 200n, 300n, 900n]);
  assert.equal(snapshot.maxWei, 900n, "the statistics follow the re-mined fee");
  assert.equal(snapshot.currentBaseFeeWei, 360n);
  assert.deepEqual(snapshot.recentTips, [blockTipsOf(13n, [1n, 2n, 3n])]);
});

test("an answer behind the blocks held contradicts them, and says nothing about the next block", () => {
  const fees = state();
  fees.apply(answer(10n, [100n, 200n, 300n], 350n));
  const lagging = answer(10n, [100n, 200n], 999n);
  assert.equal(fees.contradicts(lagging), true);
  assert.equal(fees.apply(lagging), false);
  assert.equal(fees.snapshot!.currentBaseFeeWei, 350n);
});

test("another fee for a block held contradicts; new blocks after the held ones do not", () => {
  const fees = state();
  assert.equal(fees.contradicts(answer(10n, [1n])), false, "nothing held yet");
  fees.apply(answer(10n, [100n, 200n, 300n], 350n));
  assert.equal(fees.contradicts(answer(11n, [200n, 301n])), true);
  assert.equal(fees.contradicts(answer(11n, [200n, 300n, 400n])), false);
  assert.equal(fees.contradicts(answer(20n, [1n])), false, "a gap is not a contradiction: the window starts afresh");
});

test("the window keeps the newest windowBlocks blocks; the history the newest 500 of them", () => {
  const fees = state(600);
  fees.apply(
    answer(
      0n,
      Array.from({ length: 700 }, (_, i) => BigInt(i + 1)),
    ),
  );
  assert.equal(fees.blocksHeld, 600);
  assert.equal(fees.snapshot!.historyWei.length, 500);
  assert.equal(fees.snapshot!.historyWei[0], 201n);
  assert.equal(fees.snapshot!.minWei, 101n, "statistics over the 600 blocks held");
});
