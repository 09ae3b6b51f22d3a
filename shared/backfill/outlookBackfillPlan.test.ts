import assert from "node:assert/strict";
import { test } from "node:test";
import { planOutlookBackfill } from "./outlookBackfillPlan.ts";

const EIGHT_WEEKS = 8 * 7 * 86_400;

test("8 weeks of Ethereum (12 s) are read block by block: 395 pages, 1,185 requests, under 10 minutes at 2 a second", () => {
  const plan = planOutlookBackfill({ spanSeconds: EIGHT_WEEKS, blockSpacingSeconds: 12, pageBlocks: 1_024 });
  assert.equal(plan.mode, "every");
  assert.equal(plan.hours, 1_344);
  assert.equal(plan.blocks, 403_200);
  assert.equal(plan.pages, 395);
  assert.equal(plan.requests, 1_185);
  assert.equal(plan.secondsAt(2), 592.5);
});

test("8 weeks of Base or OP (2 s) would take 2,365 pages: one page an hour is sampled instead", () => {
  const plan = planOutlookBackfill({ spanSeconds: EIGHT_WEEKS, blockSpacingSeconds: 2, pageBlocks: 1_024 });
  assert.equal(plan.mode, "sampled");
  assert.equal(plan.pages, 1_344);
  assert.equal(plan.requests, 4_032);
  assert.equal(plan.secondsAt(2), 2_016);
});

test("at most 2,000 pages is every block; an endpoint's lower cap makes more pages and may tip a chain into sampling", () => {
  assert.equal(planOutlookBackfill({ spanSeconds: 2_000 * 1_023, blockSpacingSeconds: 1, pageBlocks: 1_024 }).mode, "every");
  assert.equal(planOutlookBackfill({ spanSeconds: 2_000 * 1_023 + 1, blockSpacingSeconds: 1, pageBlocks: 1_024 }).mode, "sampled");
  assert.equal(planOutlookBackfill({ spanSeconds: EIGHT_WEEKS, blockSpacingSeconds: 12, pageBlocks: 100 }).mode, "sampled");
  assert.throws(() => planOutlookBackfill({ spanSeconds: 0, blockSpacingSeconds: 12, pageBlocks: 1_024 }), RangeError);
  assert.throws(() => planOutlookBackfill({ spanSeconds: EIGHT_WEEKS, blockSpacingSeconds: 0, pageBlocks: 1_024 }), RangeError);
});
