import assert from "node:assert/strict";
import { test } from "node:test";
import { BlockSources } from "./blockSources.ts";

test("each block's source is the last that supplied it; runs of one source merge; a source's runs are listed", () => {
  const sources = new BlockSources();
  sources.record(100n, 199n, "B");
  sources.record(200n, 200n, "B");
  sources.record(201n, 250n, "A");
  assert.deepEqual(sources.rangesOf("B"), [{ fromBlock: 100n, toBlock: 200n, source: "B" }]);
  sources.record(150n, 160n, "A");
  assert.equal(sources.sourceAt(155n), "A");
  assert.equal(sources.sourceAt(149n), "B");
  assert.equal(sources.sourceAt(99n), undefined);
  assert.deepEqual(sources.rangesOf("B"), [
    { fromBlock: 100n, toBlock: 149n, source: "B" },
    { fromBlock: 161n, toBlock: 200n, source: "B" },
  ]);
  sources.forgetBelow(170n);
  assert.deepEqual(sources.rangesOf("B"), [{ fromBlock: 170n, toBlock: 200n, source: "B" }]);
});
