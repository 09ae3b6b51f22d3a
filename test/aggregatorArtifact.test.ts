// The demo's price feed is committed compiled (shared/demo/contracts/mockV3Aggregator.ts, so that the demo needs no
// compiler): this proves it is what scripts/compileAggregator.ts makes from @chainlink/contracts' source today.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AGGREGATOR_SOURCE, compileSolidity } from "../scripts/compileSolidity.ts";
import { MOCK_V3_AGGREGATOR } from "../shared/demo/contracts/mockV3Aggregator.ts";

test("the committed MockV3Aggregator artifact is current (regenerate: node_modules/.bin/tsx scripts/compileAggregator.ts)", () => {
  assert.deepEqual(JSON.parse(JSON.stringify(MOCK_V3_AGGREGATOR)), JSON.parse(JSON.stringify(compileSolidity(AGGREGATOR_SOURCE, "MockV3Aggregator"))));
});
