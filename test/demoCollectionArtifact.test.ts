// The tests' ERC-721 collection is committed compiled (test/support/contracts/demoCollection.ts): this proves it is
// what scripts/compileDemoCollection.ts makes from DemoCollection.sol and OpenZeppelin's ERC721 today.
import assert from "node:assert/strict";
import { test } from "node:test";
import { compileSolidity, DEMO_COLLECTION_SOURCE } from "../scripts/compileSolidity.ts";
import { DEMO_COLLECTION } from "./support/contracts/demoCollection.ts";

test("the committed DemoCollection artifact is current (regenerate: node_modules/.bin/tsx scripts/compileDemoCollection.ts)", () => {
  assert.deepEqual(JSON.parse(JSON.stringify(DEMO_COLLECTION)), JSON.parse(JSON.stringify(compileSolidity(DEMO_COLLECTION_SOURCE, "DemoCollection"))));
});
