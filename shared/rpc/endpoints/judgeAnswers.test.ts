import assert from "node:assert/strict";
import { test } from "node:test";
import { differenceText, judgeAnswers } from "./judgeAnswers.ts";

test("the same answer from every source is agreed; one source alone cannot disagree", () => {
  assert.deepEqual(
    judgeAnswers([
      { source: "A", value: "7" },
      { source: "B", value: "7" },
    ]),
    { kind: "agreed", value: "7" },
  );
  assert.equal(judgeAnswers([{ source: "A", value: "7" }]).kind, "agreed");
});

test("an outlier against a majority of two or more is named; a source repeating itself counts once", () => {
  const judgement = judgeAnswers([
    { source: "A", value: "1000" },
    { source: "B", value: "2000" },
    { source: "C", value: "1000" },
    { source: "B", value: "1000" },
  ]);
  assert.equal(judgement.kind, "majority");
  assert.deepEqual(judgement.kind === "majority" && judgement.outliers, [{ source: "B", value: "2000" }]);
  assert.equal(judgement.kind === "majority" && differenceText("block 9's base fee", judgement), "block 9's base fee: 2000 at B, where the others give 1000");
});

test("two sources with two stories, or a tie, are disputed: nothing settles them", () => {
  assert.equal(
    judgeAnswers([
      { source: "A", value: "1" },
      { source: "B", value: "2" },
    ]).kind,
    "disputed",
  );
  assert.equal(
    judgeAnswers([
      { source: "A", value: "1" },
      { source: "B", value: "2" },
      { source: "C", value: "1" },
      { source: "D", value: "2" },
    ]).kind,
    "disputed",
  );
  assert.equal(
    judgeAnswers([
      { source: "A", value: "1" },
      { source: "B", value: "2" },
      { source: "C", value: "3" },
    ]).kind,
    "disputed",
  );
});
