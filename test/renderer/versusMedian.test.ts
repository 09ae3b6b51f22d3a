import assert from "node:assert/strict";
import { test } from "node:test";
import { versusMedian } from "../../renderer/src/chains/versusMedian.ts";

test("the current base fee against a median: a signed share, a multiple from twice on, level within half a percent", () => {
  assert.deepEqual(versusMedian("107", "100"), { ratio: 1.07, words: "+7%", direction: "above" });
  assert.deepEqual(versusMedian("88", "100"), { ratio: 0.88, words: "−12%", direction: "below" });
  assert.deepEqual(versusMedian("100.4", "100"), { ratio: 1.004, words: "±0%", direction: "at" });
  assert.equal(versusMedian("240", "100")!.words, "2.4×");
  assert.equal(versusMedian("1234", "100")!.words, "12×");
  assert.equal(versusMedian("0.000000001", "0.000000002")!.words, "−50%");
  assert.equal(versusMedian("5", "0"), undefined);
  assert.equal(versusMedian("5", "garbage"), undefined);
});
