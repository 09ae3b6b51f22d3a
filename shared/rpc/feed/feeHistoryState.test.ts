import assert from "node:assert/strict";
import { test } from "node:test";
import { blockTipsOf } from "../../core/fees/recentTips.ts";
import { FeeHistoryState } from "./feeHistoryState.ts";
import type { FeeHistoryAnswer } from "../connection/parseRpcAnswers.ts";

const answer = (oldestBlock: bigint, baseFeesWei: bigint[], nextBaseFeeWei?: bigint, extra: Partial<FeeHistoryAnswer> = {}): FeeHistoryAnswer => ({
  oldestBlock,
  baseFeesWei,
  nextBaseFeeWei,
  ...extra,
});

function state(windowBlocks = 1000) {
  return new FeeHistoryState({ windowBlocks });
}

test("nothing held before the first answer; the first is reported whole, with its gas-used ratios and blob base fees", () => {
  const fees = state();
  assert.equal(fees.newestBlock, undefined);
  const applied = fees.apply(answer(10n, [100n, 200n, 300n], 350n, { gasUsedRatios: [0.5, 0.6, 0.7], blobBaseFeesWei: [1n, 2n, 3n] }));
  assert.deepEqual(applied, {
    changed: true,
    blocks: { firstBlock: 10n, baseFeesWei: [100n, 200n, 300n], gasUsedRatios: [0.5, 0.6, 0.7], blobBaseFeesWei: [1n, 2n, 3n] },
  });
  assert.ok(Object.isFrozen(applied.blocks));
  assert.equal(fees.newestBlock, 12n);
  assert.equal(fees.blocksHeld, 3);
  assert.equal(fees.nextBaseFeeWei, 350n);
});

test("an answer that brings nothing new changes nothing and reports no block", () => {
  const fees = state();
  fees.apply(answer(10n, [100n, 200n, 300n], 350n));
  assert.deepEqual(fees.apply(answer(11n, [200n, 300n], 350n)), { changed: false, blocks: undefined });
});

test("each kind of change is one: a new block, a re-mined block (reported from it on), the next base fee, the tips", () => {
  const fees = state();
  fees.apply(answer(10n, [100n, 200n, 300n], 350n));
  assert.deepEqual(fees.apply(answer(11n, [200n, 300n, 400n], 350n)).blocks, { firstBlock: 13n, baseFeesWei: [400n] }, "the new block alone");
  assert.deepEqual(fees.apply(answer(11n, [200n, 900n, 400n], 350n)).blocks, { firstBlock: 12n, baseFeesWei: [900n, 400n] }, "from the re-mined block on");
  assert.deepEqual(fees.apply(answer(13n, [400n], 360n)), { changed: true, blocks: undefined }, "the next base fee");
  const tipsBefore = fees.recentTips;
  assert.deepEqual(fees.apply(answer(13n, [400n], 360n, { tips: [blockTipsOf(13n, [1n, 2n, 3n])] })), { changed: true, blocks: undefined }, "the tips");
  assert.notEqual(fees.recentTips, tipsBefore);
  assert.deepEqual(fees.recentTips, [blockTipsOf(13n, [1n, 2n, 3n])]);
  assert.ok(Object.isFrozen(fees.recentTips));
  assert.equal(fees.nextBaseFeeWei, 360n);
});

test("an answer behind the blocks held contradicts them, reports nothing, and says nothing about the next block", () => {
  const fees = state();
  fees.apply(answer(10n, [100n, 200n, 300n], 350n));
  const lagging = answer(10n, [100n, 200n], 999n);
  assert.equal(fees.contradicts(lagging), true);
  assert.deepEqual(fees.apply(lagging), { changed: false, blocks: undefined });
  assert.equal(fees.nextBaseFeeWei, 350n);
});

test("another fee for a block held contradicts; new blocks after the held ones do not", () => {
  const fees = state();
  assert.equal(fees.contradicts(answer(10n, [1n])), false, "nothing held yet");
  fees.apply(answer(10n, [100n, 200n, 300n], 350n));
  assert.equal(fees.contradicts(answer(11n, [200n, 301n])), true);
  assert.equal(fees.oldestRewrite(answer(10n, [100n, 201n, 301n])), 11n);
  assert.equal(fees.contradicts(answer(11n, [200n, 300n, 400n])), false);
  assert.equal(fees.contradicts(answer(20n, [1n])), false, "a gap is not a contradiction: the window starts afresh");
});

test("the window keeps the newest windowBlocks blocks", () => {
  const fees = state(600);
  fees.apply(
    answer(
      0n,
      Array.from({ length: 700 }, (_, i) => BigInt(i + 1)),
    ),
  );
  assert.equal(fees.blocksHeld, 600);
  assert.equal(fees.newestBlock, 699n);
});

test("blocks held from before (a restart) are what the first answer is told against: only what is newer is reported", () => {
  const fees = state();
  fees.seed({ firstBlock: 10n, baseFeesWei: [100n, 200n, 300n] });
  assert.equal(fees.newestBlock, 12n);
  assert.deepEqual(fees.apply(answer(11n, [200n, 300n, 400n, 500n], 550n)).blocks, { firstBlock: 13n, baseFeesWei: [400n, 500n] });
  fees.seed({ firstBlock: 0n, baseFeesWei: [1n] });
  assert.equal(fees.newestBlock, 14n, "a seed only takes while nothing is held");
});
