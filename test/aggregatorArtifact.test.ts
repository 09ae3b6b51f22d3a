// The demo's price feed is committed compiled (shared/demo/contracts/MockV3Aggregator.json, so that the demo needs no
// compiler): this proves it is what scripts/compileAggregator.ts makes from @chainlink/contracts' source today.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { AGGREGATOR_ARTIFACT, AGGREGATOR_SOURCE, compileSolidity } from "../scripts/compileSolidity.ts";

test("the committed MockV3Aggregator artifact is current (regenerate: node_modules/.bin/tsx scripts/compileAggregator.ts)", () => {
  const committed = JSON.parse(readFileSync(AGGREGATOR_ARTIFACT, "utf8")) as unknown;
  assert.deepEqual(committed, JSON.parse(JSON.stringify(compileSolidity(AGGREGATOR_SOURCE, "MockV3Aggregator"))));
});
