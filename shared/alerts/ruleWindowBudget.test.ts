import assert from "node:assert/strict";
import { test } from "node:test";
import { parseWindowSpec } from "../core/history/duration.ts";
import type { ChainPlan } from "../service/chainPlan.ts";
import { RuleWindowBudget } from "./ruleWindowBudget.ts";

/** 12 s blocks, a day's horizon (7,200 blocks: a budget of 14,400), the newest 600 blocks as statistics window. */
const CHAIN: ChainPlan = {
  chainId: 1,
  name: "Ethereum",
  rpcUrls: [],
  blockTimeMs: 12_000,
  historyHorizon: "1d",
  statsWindow: parseWindowSpec("600 blocks")!,
};
const window = (text: string) => parseWindowSpec(text)!;

test("a window costs its blocks at the chain's block time once, whatever its text; the statistics window costs nothing", () => {
  const budget = new RuleWindowBudget();
  assert.equal(budget.take(window("600 blocks"), CHAIN), undefined, "the statistics window");
  assert.equal(budget.take(window("12h"), CHAIN), undefined); // 3,600 blocks
  assert.equal(budget.take(window("720m"), CHAIN), undefined, "12h again");
  assert.equal(budget.take(window("1d"), CHAIN), undefined); // 7,200 blocks: 10,800 in all
  assert.equal(budget.take(window("3600 blocks"), CHAIN), undefined); // 14,400 in all: the budget, reached
  assert.match(
    budget.take(window("3601 blocks"), CHAIN) ?? "",
    /span 18,001 blocks together, more than 2 times its historyHorizon \(1d, 14,400 blocks at 12000 ms a block\)/,
  );
  // Another chain has a budget of its own.
  assert.equal(budget.take(window("1d"), { ...CHAIN, chainId: 10 }), undefined);
});

test("a window never costs less than the newest 500 blocks nor more than the horizon holds, as the history keeps it", () => {
  const budget = new RuleWindowBudget();
  // 10,000,000 blocks reach no further back than the horizon: 7,200 blocks.
  assert.equal(budget.take(window("10000000 blocks"), CHAIN), undefined);
  assert.equal(budget.take(window("9999999 blocks"), CHAIN), undefined);
  // A minute is 5 blocks, but a window holds the newest 500 at least: 14,400 + 500 is one window too many.
  assert.match(budget.take(window("1m"), CHAIN) ?? "", /span 14,900 blocks together/);
});
