import assert from "node:assert/strict";
import { test } from "node:test";
import { alertRuleSettingsSchema } from "../../shared/wire/alertRuleSchema.ts";
import {
  checkDraft,
  draftOfStoredRule,
  newAlertDraft,
  problemsOfRefusal,
  ruleIdFor,
  storedIds,
  storedRuleRows,
  withoutRule,
  withRuleEnabled,
  withRuleSaved,
} from "../../renderer/src/settings/alertDrafts.ts";

const FIXED = { id: "cheap-eth", chainId: 1, when: "below", gwei: "8" } as const;
const RELATIVE = {
  id: "spike",
  chainId: 8453,
  when: "above",
  percentile: 95,
  window: "7d",
  forBlocks: 3,
  cooldownMinutes: 60,
  enabled: false,
  webhookUrl: "https://hooks.example.com/services/T0/B0/secret",
  label: "Base spike",
} as const;

const BLOB = { id: "blobs-cheap", chainId: 1, when: "below", fee: "blob", percentile: 20, window: "24h" } as const;

test("a stored rule edited without a change is stored as it was, fixed or relative, and the file's schema takes it", () => {
  for (const rule of [FIXED, RELATIVE, BLOB]) {
    const checked = checkDraft(draftOfStoredRule(rule), []);
    assert.deepEqual(checked, { ok: true, rule });
    assert.ok(alertRuleSettingsSchema.safeParse(checked.ok && checked.rule).success);
  }
});

test("a new rule stores only what was typed, and gets an id from its label or its condition that no other rule has", () => {
  const draft = { ...newAlertDraft(1), gwei: " 8 " };
  assert.deepEqual(checkDraft(draft, []), { ok: true, rule: { id: "1-below-8", chainId: 1, when: "below", gwei: "8" } });
  assert.equal(ruleIdFor(draft, ["1-below-8", "1-below-8-2"]), "1-below-8-3");
  assert.equal(ruleIdFor({ ...draft, label: "  Cheap ETH, at last!  " }, []), "cheap-eth-at-last");
  const relative = { ...newAlertDraft(8453), when: "above", thresholdKind: "percentile", percentile: "95", window: "7d", gwei: "ignored" } as const;
  assert.deepEqual(checkDraft(relative, ["8453-above-p95"]), {
    ok: true,
    rule: { id: "8453-above-p95-2", chainId: 8453, when: "above", percentile: 95, window: "7d" },
  });
});

test("each bad field is named beside itself with the settings schema's own message, and nothing is returned to store", () => {
  const draft = {
    ...newAlertDraft(1),
    thresholdKind: "percentile",
    percentile: "100",
    window: "a week",
    forBlocks: "three",
    cooldownMinutes: "-5",
    webhookUrl: "http://example.com/hook",
    label: "x".repeat(65),
  } as const;
  const checked = checkDraft(draft, []);
  assert.equal(checked.ok, false);
  const problems = checked.ok ? {} : checked.problems;
  assert.deepEqual(Object.keys(problems).sort(), ["cooldownMinutes", "forBlocks", "label", "percentile", "webhookUrl", "window"]);
  const schemaIssues = alertRuleSettingsSchema.safeParse({ id: "a", chainId: 1, when: "below", percentile: 100, webhookUrl: "http://example.com/hook" }).error!
    .issues;
  assert.equal(problems.percentile, schemaIssues.find((issue) => issue.path[0] === "percentile")!.message);
  assert.equal(problems.webhookUrl, schemaIssues.find((issue) => issue.path[0] === "webhookUrl")!.message);
  assert.match(problems.percentile, /1 to 99/);
  assert.match(problems.webhookUrl, /https/);
  // A word typed into a number field is quoted back as typed, not as NaN.
  assert.match(problems.forBlocks!, /"three"/);
});

test("a fixed rule without a fee, and a rule without a chain, are refused beside those fields", () => {
  const checked = checkDraft({ ...newAlertDraft(undefined), gwei: "" }, []);
  assert.equal(checked.ok, false);
  assert.deepEqual(Object.keys(checked.ok ? {} : checked.problems).sort(), ["chainId", "gwei"]);
  const negative = checkDraft({ ...newAlertDraft(1), gwei: "-1" }, []);
  assert.match(negative.ok ? "" : negative.problems.gwei!, /negative/);
});

test("turning a rule off stores enabled: false, on again removes it; save, add and delete touch that rule only", () => {
  const rules = [FIXED, RELATIVE, { id: "hand-edited", chainId: "one" }];
  const off = withRuleEnabled(rules, 0, false);
  assert.deepEqual(off, [{ ...FIXED, enabled: false }, RELATIVE, rules[2]]);
  const { enabled: _off, ...relativeOn } = RELATIVE;
  assert.deepEqual(withRuleEnabled(off, 1, true), [{ ...FIXED, enabled: false }, relativeOn, rules[2]]);
  assert.deepEqual(withRuleSaved(rules, 0, { ...FIXED, gwei: "9" }), [{ ...FIXED, gwei: "9" }, RELATIVE, rules[2]]);
  assert.deepEqual(withRuleSaved(rules, undefined, { ...FIXED, id: "new" }), [...rules, { ...FIXED, id: "new" }]);
  assert.deepEqual(withoutRule(rules, 1), [FIXED, rules[2]]);
  assert.deepEqual(storedIds(rules, 1), ["cheap-eth", "hand-edited"]);
});

test("a stored rule is listed with the problems the main process names it by (id or place), else the schema's", () => {
  const rows = storedRuleRows(
    [FIXED, { id: "hand-edited", chainId: 1, when: "below", percentile: 0 }, 42, { ...FIXED, id: "gone", chainId: 6001 }],
    [
      { rule: "#3", field: "(rule)", message: "is 42, not a rule" },
      { rule: "gone", field: "chainId", message: "6001 is not a followed chain" },
    ],
  );
  assert.deepEqual(
    rows.map(({ name, problems }) => ({ name, problems })),
    [
      { name: "cheap-eth", problems: [] },
      { name: "hand-edited", problems: [rows[1]!.problems[0]!] },
      { name: "#3", problems: ["(rule): is 42, not a rule"] },
      { name: "gone", problems: ["chainId: 6001 is not a followed chain"] },
    ],
  );
  // Read by the schema where it can be (defaults filled in), so that the list shows its fields.
  assert.equal(rows[0]!.rule?.forBlocks, 1);
  assert.equal(rows[3]!.rule?.chainId, 6001);
  assert.equal(rows[1]!.rule, undefined);
  assert.match(rows[1]!.problems[0]!, /^percentile: .*1 to 99/);
  // A hand-edited rule opens in the form with what it holds, so that it can be put right.
  assert.deepEqual(draftOfStoredRule({ id: "hand-edited", chainId: 1, when: "above", percentile: 0 }), {
    ...newAlertDraft(1),
    id: "hand-edited",
    when: "above",
    thresholdKind: "percentile",
    percentile: "0",
  });
});

test("the main process's refusal goes beside the fields it names for the rule being saved; anything else is about the rule", () => {
  const window = '"30d" is longer than the history Mainnet replay (31337) keeps (its historyHorizon, 7d): use a window of at most 7d';
  const refusal = (message: string, alertProblems: Array<{ rule: string; field: string; message: string }>) => ({ message, alertProblems });
  assert.deepEqual(
    problemsOfRefusal(refusal(`alert rule spike, window: ${window}. Nothing was saved.`, [{ rule: "spike", field: "window", message: window }]), "spike"),
    { window },
  );
  assert.deepEqual(
    problemsOfRefusal(
      refusal(
        "These alert rules cannot be saved (nothing was):\nalert rule spike, chainId: 6001 is not a followed chain\nalert rule spike, id: is also the id of rule #1",
        [
          { rule: "spike", field: "chainId", message: "6001 is not a followed chain" },
          { rule: "spike", field: "id", message: "is also the id of rule #1" },
        ],
      ),
      "spike",
    ),
    { chainId: "6001 is not a followed chain", rule: "alert rule spike, id: is also the id of rule #1" },
  );
  assert.deepEqual(problemsOfRefusal(refusal("Something went wrong: disk full", []), "spike"), { rule: "Something went wrong: disk full" });
  assert.deepEqual(
    problemsOfRefusal(refusal("alert rule other, gwei: is missing. Nothing was saved.", [{ rule: "other", field: "gwei", message: "is missing" }]), "spike"),
    { rule: "alert rule other, gwei: is missing" },
  );
});
