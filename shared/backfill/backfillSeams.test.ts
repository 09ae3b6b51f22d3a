import assert from "node:assert/strict";
import { test } from "node:test";
import type { BackfillPage } from "./backfillPage.ts";
import { judgeSeams, type HeldFee } from "./backfillSeams.ts";

/** A page of blocks 100..109 whose fees are `fee(block)`, meeting block 110 above with `above`. */
function page(fee: (block: bigint) => bigint, above: bigint): BackfillPage {
  return {
    firstBlock: 100n,
    baseFeesWei: Array.from({ length: 10 }, (_, i) => fee(100n + BigInt(i))),
    anchors: [],
    seams: [{ block: 110n, baseFeeWei: above }],
  };
}
const honest = (block: bigint) => 1000n + block;
const doubled = (block: bigint) => 2n * honest(block);
const held =
  (source: string | undefined) =>
  (block: bigint): HeldFee | undefined =>
    block >= 110n ? { baseFeeWei: honest(block), source } : undefined;

test("a page that meets the history fits; one that does not is fetched again first", () => {
  assert.deepEqual(judgeSeams({ page: page(honest, honest(110n)), source: "A" }, held(undefined)), { kind: "fits" });
  const verdict = judgeSeams({ page: page(doubled, doubled(110n)), source: "B" }, held(undefined));
  assert.equal(verdict.kind, "refetch");
  assert.equal(verdict.kind === "refetch" && verdict.how, "block 110's base fee: 2220 at B, 1110 at the history held");
});

test("with the history held from before (no known source) as a third witness, the liar is the outlier and the other page is kept", () => {
  const liar = { page: page(doubled, doubled(110n)), source: "B" };
  const other = { page: page(honest, honest(110n)), source: "A" };
  const verdict = judgeSeams(liar, held(undefined), other);
  assert.equal(verdict.kind, "keep");
  assert.equal(verdict.kind === "keep" && verdict.page, other);
  assert.deepEqual(verdict.kind === "keep" && verdict.outliers, [{ source: "B", how: "block 110's base fee: 2220 at B, where the others give 1110" }]);
});

test("the history held from the other page's own endpoint is no third witness: two stories, a dispute; the page agreeing with it is kept", () => {
  const liar = { page: page(doubled, doubled(110n)), source: "B" };
  const other = { page: page(honest, honest(110n)), source: "A" };
  const verdict = judgeSeams(liar, held("A"), other);
  assert.equal(verdict.kind, "disputed");
  assert.equal(verdict.kind === "disputed" && verdict.keep, other);
});

test("two endpoints agreeing against a block the history holds: the held block is corrected by the majority", () => {
  const a = { page: page(honest, 5n), source: "A" };
  const c = { page: page(honest, 5n), source: "C" };
  const verdict = judgeSeams(a, held("B"), c);
  assert.equal(verdict.kind, "keep");
  assert.deepEqual(verdict.kind === "keep" && verdict.outliers, [{ source: "B", how: "block 110's base fee: 1110 at B, where the others give 5" }]);
  assert.deepEqual(verdict.kind === "keep" && verdict.corrections, [{ block: 110n, baseFeeWei: 5n }]);
});

test("two pages that meet the history alike but differ inside are two stories: nothing is kept", () => {
  const a = { page: page(honest, honest(110n)), source: "A" };
  const b = { page: page((block) => (block === 105n ? 1n : honest(block)), honest(110n)), source: "B" };
  const verdict = judgeSeams(a, held(undefined), b);
  assert.equal(verdict.kind, "disputed");
  assert.equal(verdict.kind === "disputed" && verdict.keep, undefined);
});
