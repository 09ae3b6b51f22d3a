import assert from "node:assert/strict";
import { test } from "node:test";
import { actionsWith, DEFAULT_ACTIONS } from "./defaultActions.ts";

test("the defaults first, the user's own after; one with a default's id takes its place; a transfer is exactly 21,000 gas", () => {
  assert.equal(DEFAULT_ACTIONS.find((action) => action.id === "transfer")?.gas, 21_000n);
  const actions = actionsWith([
    { id: "bridge", name: "Bridge", gas: 120_000, txBytes: 420 },
    { id: "swap", name: "My swap", gas: 150_000, txBytes: 700 },
  ]);
  assert.deepEqual(
    actions.map((action) => `${action.id} ${action.gas} ${action.txBytes}`),
    ["transfer 21000 110", "erc20-transfer 41309 178", "swap 150000 700", "nft-transfer 62938 211", "bridge 120000 420"],
  );
});
