// The outlook's two settings per chain (summaryHorizon, outlookBackfill): their defaults, their errors, and the plan.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSettings, SettingsError } from "../config/settings.ts";
import { chainPlanFrom, outlookBackfillOf, summaryHorizonOf } from "./chainPlan.ts";

const chain = (extra: Record<string, unknown>) => ({ chains: [{ chainId: 1, rpcUrls: ["https://rpc.example"], ...extra }] });
const planOf = (extra: Record<string, unknown>) => chainPlanFrom(parseSettings(chain(extra)).chains![0]!);

test("summaries are kept 52 weeks and backfilled 8 weeks by default; the settings change both", () => {
  assert.deepEqual(summaryHorizonOf(planOf({})), { text: "52w", seconds: 52 * 7 * 86_400 });
  assert.deepEqual(outlookBackfillOf(planOf({})), { text: "8w", seconds: 8 * 7 * 86_400 });
  const plan = planOf({ summaryHorizon: "30d", outlookBackfill: "2w", historyHorizon: "14d" });
  assert.deepEqual(summaryHorizonOf(plan), { text: "30d", seconds: 30 * 86_400 });
  assert.deepEqual(outlookBackfillOf(plan), { text: "2w", seconds: 14 * 86_400 });
});

test("a summary horizon that is no duration, or shorter than the history horizon, is refused by name; so is a bad outlook backfill", () => {
  const refused = (extra: Record<string, unknown>, pattern: RegExp) =>
    assert.throws(
      () => parseSettings(chain(extra)),
      (error: unknown) => error instanceof SettingsError && pattern.test(error.message),
    );
  refused({ summaryHorizon: "a year" }, /chains\.0\.summaryHorizon: must be a duration like "52w"/);
  refused({ summaryHorizon: "2000d" }, /chains\.0\.summaryHorizon: must be a duration/);
  refused({ summaryHorizon: "3d" }, /chains\.0\.summaryHorizon: the hourly summaries are kept at least as long as the history/);
  refused({ summaryHorizon: "10d", historyHorizon: "14d" }, /summaryHorizon: .*historyHorizon, default 7d/);
  refused({ outlookBackfill: 8 }, /chains\.0\.outlookBackfill:/);
  refused({ outlookBackfill: "0w" }, /chains\.0\.outlookBackfill: must be a duration like "8w"/);
});
