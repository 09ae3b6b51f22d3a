import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { AlertRule } from "../core/alerts/alertRule.ts";
import { webhookUrlProblem } from "../core/alerts/webhookUrl.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import { parseDurationSeconds, parseWindowSpec } from "../core/history/duration.ts";
import { type ChainPlan, chainPlansFrom } from "../service/chainPlan.ts";
import { alertRuleProblemSchema, type AlertRuleProblem } from "../wire/alerts.ts";
import { type NotificationSettings, notificationSettingsSchema, parseSettings } from "../config/settings.ts";
import { alertRuleSettingsSchema } from "../wire/alertRuleSchema.ts";
import { MAX_ASKED_WINDOWS } from "../core/history/trackedWindows.ts";
import { DEFAULT_ACTIONS } from "../core/costs/defaultActions.ts";
import { loadAlertRules, MAX_ALERT_RULES } from "./loadAlertRules.ts";
import { WINDOW_BUDGET_HORIZONS } from "./ruleWindowBudget.ts";

const ETHEREUM: ChainPlan = { chainId: 1, name: "Ethereum", rpcUrls: ["https://eth.example/rpc"], blockTimeMs: 12_000 };
/** A chain that keeps two days of history and computes its statistics over the newest 7,200 blocks. */
const BASE: ChainPlan = {
  chainId: 8453,
  name: "Base",
  rpcUrls: ["https://base.example/rpc"],
  blockTimeMs: 2_000,
  statsWindow: parseWindowSpec("7200 blocks")!,
  historyHorizon: "2d",
};
const CHAINS = [ETHEREUM, BASE];
const NOTIFICATIONS: NotificationSettings = notificationSettingsSchema.parse({});

const CHEAP_ETH = { id: "cheap-eth", chainId: 1, when: "below", gwei: "8" };
const BASE_SPIKE = {
  id: "spike",
  chainId: 8453,
  when: "above",
  percentile: 95,
  window: "2d",
  forBlocks: 3,
  cooldownMinutes: 60,
  enabled: true,
  webhookUrl: "https://hooks.slack.com/services/T000/B000/XXXX",
  label: "Base spike",
};

const userRules = (rules: readonly AlertRule[]) => rules.filter((rule) => rule.builtIn === undefined);
const named = (problems: readonly AlertRuleProblem[]) => problems.map(({ rule, field }) => `${rule} ${field}`);
const messageOf = (problems: readonly AlertRuleProblem[], rule: string, field: string) => {
  const found = problems.filter((problem) => problem.rule === rule && problem.field === field);
  assert.equal(found.length, 1, `one problem for ${rule} ${field}, among ${JSON.stringify(problems)}`);
  return found[0]!.message;
};

test("good rules load with their defaults filled in: re-arm after forBlocks, their own cooldown group, minutes as ms", () => {
  const { rules, problems } = loadAlertRules(
    [CHEAP_ETH, BASE_SPIKE, { id: "cheap-base", chainId: 8453, when: "below", percentile: 20 }],
    CHAINS,
    NOTIFICATIONS,
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(userRules(rules), [
    {
      id: "cheap-eth",
      chainId: 1,
      when: "below",
      threshold: { kind: "fixed", wei: 8_000_000_000n },
      forBlocks: 1,
      rearmAfterBlocks: 1,
      cooldownMs: 15 * 60_000,
      cooldownGroup: "cheap-eth",
      enabled: true,
    },
    {
      id: "spike",
      chainId: 8453,
      when: "above",
      threshold: { kind: "percentile", percentile: 95, window: { kind: "duration", seconds: 2 * 86_400, text: "2d" } },
      forBlocks: 3,
      rearmAfterBlocks: 3,
      cooldownMs: 60 * 60_000,
      cooldownGroup: "spike",
      enabled: true,
      webhookUrl: "https://hooks.slack.com/services/T000/B000/XXXX",
      label: "Base spike",
    },
    {
      // No window: the chain's statistics window.
      id: "cheap-base",
      chainId: 8453,
      when: "below",
      threshold: { kind: "percentile", percentile: 20, window: { kind: "blocks", blocks: 7200, text: "7200 blocks" } },
      forBlocks: 1,
      rearmAfterBlocks: 1,
      cooldownMs: 15 * 60_000,
      cooldownGroup: "cheap-base",
      enabled: true,
    },
  ]);
});

test("every kind of bad rule is refused, naming the rule and the field, while the other rules of the same file load", () => {
  const file = parseSettings({
    version: 3,
    chains: [
      { chainId: 1, name: "Ethereum", rpcUrls: ["https://eth.example/rpc"] },
      { chainId: 8453, name: "Base", rpcUrls: ["https://base.example/rpc"], historyHorizon: "2d" },
    ],
    alerts: [
      CHEAP_ETH,
      { id: "unknown-chain", chainId: 6001, when: "below", gwei: "8" },
      { id: "negative", chainId: 1, when: "below", gwei: "-1" },
      { id: "negative-number", chainId: 1, when: "below", gwei: -0.5 },
      { id: "not-numeric", chainId: 1, when: "below", gwei: "cheap" },
      { id: "exponent", chainId: 1, when: "below", gwei: "8e9" },
      { id: "p0", chainId: 1, when: "below", percentile: 0 },
      { id: "p100", chainId: 1, when: "above", percentile: 100 },
      { id: "p20.5", chainId: 1, when: "below", percentile: 20.5 },
      { id: "too-long", chainId: 8453, when: "above", percentile: 95, window: "7d" },
      { id: "plain-http", chainId: 1, when: "below", gwei: "8", webhookUrl: "http://example.com/hook" },
      { id: "cheap-eth", chainId: 1, when: "below", gwei: "5" },
      { id: "both", chainId: 1, when: "below", gwei: "8", percentile: 20 },
      { id: "neither", chainId: 1, when: "below" },
      BASE_SPIKE,
    ],
  });
  const { rules, problems } = loadAlertRules(file.alerts, chainPlansFrom(file.chains), file.notifications);
  assert.deepEqual(
    userRules(rules).map((rule) => rule.id),
    ["cheap-eth", "spike"],
  );
  assert.deepEqual(userRules(rules)[0]!.threshold, { kind: "fixed", wei: 8_000_000_000n }, "the first cheap-eth runs");
  assert.deepEqual(named(problems), [
    "unknown-chain chainId",
    "negative gwei",
    "negative-number gwei",
    "not-numeric gwei",
    "exponent gwei",
    "p0 percentile",
    "p100 percentile",
    "p20.5 percentile",
    "too-long window",
    "plain-http webhookUrl",
    "cheap-eth id",
    "both percentile",
    "neither gwei",
  ]);
  assert.equal(
    messageOf(problems, "unknown-chain", "chainId"),
    "6001 is not a followed chain; add it under chains, or use one that is followed: 1 (Ethereum), 8453 (Base)",
  );
  assert.match(messageOf(problems, "negative", "gwei"), /^cannot be negative \("-1"\)/);
  assert.match(messageOf(problems, "negative-number", "gwei"), /^cannot be negative \(got -0\.5\)/);
  assert.match(messageOf(problems, "not-numeric", "gwei"), /^is not a number of Gwei \("cheap"\)/);
  assert.match(messageOf(problems, "exponent", "gwei"), /^is written with an exponent \("8e9"\)/);
  for (const [rule, got] of [
    ["p0", "0"],
    ["p100", "100"],
    ["p20.5", "20.5"],
  ]) {
    assert.match(messageOf(problems, rule!, "percentile"), new RegExp(`^must be a whole number from 1 to 99 .* \\(got ${got!.replace(".", "\\.")}\\)$`));
  }
  assert.equal(
    messageOf(problems, "too-long", "window"),
    '"7d" is longer than the history Base (8453) keeps (its historyHorizon, 2d): use a window of at most 2d, or raise historyHorizon under chains',
  );
  assert.match(messageOf(problems, "plain-http", "webhookUrl"), /^must be https, or http to this computer/);
  assert.equal(messageOf(problems, "cheap-eth", "id"), "is also the id of rule #1 (the first one runs): give each rule an id of its own");
  assert.match(messageOf(problems, "both", "percentile"), /^cannot be set together with gwei/);
  assert.match(messageOf(problems, "neither", "gwei"), /^is missing: a rule needs a threshold, either gwei .*, percentile .* or fiat with action/);
  for (const problem of problems) alertRuleProblemSchema.parse(problem);
});

test("a rule with several faults gets one problem per field at fault, all at once, in the order of the rule's fields", () => {
  const { rules, problems } = loadAlertRules(
    [
      { label: 7, forBlocks: 0, gwei: "-2", when: "sideways", chainId: 6001, id: "many", cooldownMinutes: 2000, enabled: "yes", gwie: "8" },
      { id: "no-threshold", chainId: 1, when: "under", webhookUrl: "http://example.com/" },
      { chainId: 1, when: "below", gwei: "8" },
      { id: "has spaces", chainId: 1, when: "below", gwei: "8" },
      "cheap please",
      null,
      [CHEAP_ETH],
    ],
    CHAINS,
    NOTIFICATIONS,
  );
  assert.deepEqual(userRules(rules), []);
  assert.deepEqual(named(problems), [
    "many chainId",
    "many when",
    "many gwei",
    "many forBlocks",
    "many cooldownMinutes",
    "many enabled",
    "many label",
    "many gwie",
    "no-threshold when",
    "no-threshold gwei",
    "no-threshold webhookUrl",
    "#3 id",
    "#4 id",
    "#5 (rule)",
    "#6 (rule)",
    "#7 (rule)",
  ]);
  assert.match(messageOf(problems, "many", "when"), /^must be "below" or "above" \(got "sideways"\)$/);
  assert.match(messageOf(problems, "many", "forBlocks"), /^must be a whole number of blocks from 1 to 1000 \(got 0\)$/);
  assert.match(messageOf(problems, "many", "cooldownMinutes"), /^must be a number of minutes from 0 to 1440 \(a day\) \(got 2000\)$/);
  assert.match(messageOf(problems, "many", "enabled"), /^must be true or false \(got "yes"\)$/);
  assert.match(messageOf(problems, "many", "gwie"), /^is not a field of an alert rule \(check its spelling; the fields are id, chainId, when, fee, gwei/);
  assert.match(messageOf(problems, "#3", "id"), /^is missing: it must be 1 to 64 letters, digits/);
  assert.match(messageOf(problems, "#4", "id"), /^must be 1 to 64 letters, digits, .* \(got "has spaces"\)$/);
  assert.match(messageOf(problems, "#5", "(rule)"), /^is "cheap please", not a rule: a rule looks like \{"id":"cheap-eth"/);
});

test("a window may be as long as the chain's history horizon, not longer; a count of blocks is not checked against it", () => {
  const rule = (id: string, window: string, chainId = 1) => ({ id, chainId, when: "below", percentile: 20, window });
  const { rules, problems } = loadAlertRules(
    [rule("week", "7d"), rule("hours", "168h"), rule("over", "169h"), rule("blocks", "7200 blocks", 8453), rule("base-3d", "3d", 8453), rule("bad", "a week")],
    CHAINS,
    NOTIFICATIONS,
  );
  assert.deepEqual(
    userRules(rules).map((loaded) => loaded.id),
    ["week", "hours", "blocks"],
  );
  assert.deepEqual(named(problems), ["over window", "base-3d window", "bad window"]);
  assert.match(messageOf(problems, "over", "window"), /^"169h" is longer than the history Ethereum \(1\) keeps \(its historyHorizon, 7d\)/);
  assert.match(messageOf(problems, "base-3d", "window"), /^"3d" is longer than the history Base \(8453\) keeps \(its historyHorizon, 2d\)/);
  assert.match(messageOf(problems, "bad", "window"), /^must be a duration like "24h" or "7d", or a count of blocks like "7200 blocks" \(got "a week"\)$/);
});

test("a chain's rules keep at most MAX_ASKED_WINDOWS distinct percentile windows, spanning at most WINDOW_BUDGET_HORIZONS horizons of blocks: the first rules keep theirs, later ones are refused", () => {
  const ARBITRUM: ChainPlan = { chainId: 42161, name: "Arbitrum One", rpcUrls: ["https://arb.example/rpc"], blockTimeMs: 250 };
  const horizonBlocks = (7 * 86_400 * 1000) / 250;
  // 200 rules, each with a window of its own: 1h, 2h, ... 200h (the longest past the horizon, refused for that).
  const many = Array.from({ length: MAX_ALERT_RULES }, (_, index) => ({
    id: `w${index + 1}`,
    chainId: 42161,
    when: "below",
    percentile: 20,
    window: `${index + 1}h`,
  }));
  const { rules, problems } = loadAlertRules(many, [ARBITRUM], NOTIFICATIONS);
  const kept = userRules(rules).map((rule) => (rule.threshold.kind === "percentile" ? rule.threshold.window.text : "?"));
  // 1h to 16h: 16 windows (136 hours of blocks, within 2 × 168 hours); the 17th is one too many. 24h is the chain's
  // statistics window (the default), kept up to date anyway: it costs nothing.
  assert.deepEqual(kept, [...Array.from({ length: MAX_ASKED_WINDOWS }, (_, index) => `${index + 1}h`), "24h"]);
  assert.match(
    messageOf(problems, "w17", "window"),
    /^"17h" would be the 17th distinct percentile window of Arbitrum One \(42161\)'s rules, and at most 16 are kept/,
  );

  // Long windows: the blocks they span together are bounded first.
  const long = ["7d", "6d", "5d", "24h", "1d", "7d", "2d"].map((window, index) => ({ id: `l${index}`, chainId: 42161, when: "above", percentile: 90, window }));
  const loaded = loadAlertRules(long, [ARBITRUM], NOTIFICATIONS);
  // The statistics window (24h, the default) costs nothing, nor does a window a rule before took ("7d" again).
  assert.deepEqual(
    userRules(loaded.rules).map((rule) => rule.id),
    ["l0", "l1", "l3", "l4", "l5"],
  );
  assert.deepEqual(named(loaded.problems), ["l2 window", "l6 window"]);
  assert.match(
    messageOf(loaded.problems, "l2", "window"),
    new RegExp(
      `^"5d" would make the percentile windows of Arbitrum One \\(42161\\)'s rules span 6,220,800 blocks together, more than 2 times its historyHorizon \\(7d, ${(2 * horizonBlocks).toLocaleString("en")} blocks at 250 ms a block\\)`,
    ),
  );
  assert.ok(WINDOW_BUDGET_HORIZONS * horizonBlocks >= (7 + 6) * 86_400 * 4);
});

test("window belongs to a percentile: beside gwei it is refused", () => {
  const { problems } = loadAlertRules([{ id: "w", chainId: 1, when: "below", gwei: "8", window: "24h" }], CHAINS, NOTIFICATIONS);
  assert.deepEqual(named(problems), ["w window"]);
  assert.match(problems[0]!.message, /^only applies to a percentile/);
});

test("past MAX_ALERT_RULES rules, the rest are not read, and one problem says how many", () => {
  const many = Array.from({ length: MAX_ALERT_RULES + 3 }, (_, index) => ({ id: `r${index}`, chainId: 1, when: "below", gwei: String(index) }));
  const { rules, problems } = loadAlertRules(many, CHAINS, NOTIFICATIONS);
  assert.equal(userRules(rules).length, MAX_ALERT_RULES);
  assert.deepEqual(problems, [{ rule: "#201", field: "(rule)", message: "and the 3 rules after it are not read: at most 200 rules are; remove some" }]);
});

test("each followed chain gets its built-in busy and calm rules, made from the notifications settings", () => {
  const notifications = notificationSettingsSchema.parse({
    mutedChainIds: [8453],
    enterAfterBlocks: 4,
    enterMarginPercent: 12.5,
    calmAfterBlocks: 20,
    cooldownMinutes: 30,
  });
  const { rules, problems } = loadAlertRules([CHEAP_ETH], CHAINS, notifications);
  assert.deepEqual(problems, []);
  const day = { kind: "duration", seconds: 86_400, text: "24h" } as const;
  const blocks = { kind: "blocks", blocks: 7200, text: "7200 blocks" } as const;
  assert.deepEqual(
    rules.filter((rule) => rule.builtIn !== undefined),
    [
      {
        id: "busy:1",
        chainId: 1,
        when: "above",
        threshold: { kind: "percentile", percentile: 90, window: day },
        forBlocks: 4,
        rearmAfterBlocks: 20,
        atOnceMarginPercent: 12.5,
        cooldownMs: 30 * 60_000,
        cooldownGroup: "busy-calm:1",
        enabled: true,
        label: "Ethereum is busy",
        builtIn: "busy",
      },
      {
        id: "calm:1",
        chainId: 1,
        when: "below",
        threshold: { kind: "percentile", percentile: 90, window: day },
        forBlocks: 20,
        rearmAfterBlocks: 4,
        atOnceMarginPercent: 12.5,
        cooldownMs: 30 * 60_000,
        cooldownGroup: "busy-calm:1",
        enabled: true,
        label: "Ethereum has calmed down",
        builtIn: "calm",
      },
      {
        id: "busy:8453",
        chainId: 8453,
        when: "above",
        threshold: { kind: "percentile", percentile: 90, window: blocks },
        forBlocks: 4,
        rearmAfterBlocks: 20,
        atOnceMarginPercent: 12.5,
        cooldownMs: 30 * 60_000,
        cooldownGroup: "busy-calm:8453",
        enabled: false,
        label: "Base is busy",
        builtIn: "busy",
      },
      {
        id: "calm:8453",
        chainId: 8453,
        when: "below",
        threshold: { kind: "percentile", percentile: 90, window: blocks },
        forBlocks: 20,
        rearmAfterBlocks: 4,
        atOnceMarginPercent: 12.5,
        cooldownMs: 30 * 60_000,
        cooldownGroup: "busy-calm:8453",
        enabled: false,
        label: "Base has calmed down",
        builtIn: "calm",
      },
    ],
  );
  const off = loadAlertRules([], CHAINS, { ...notifications, enabled: false, mutedChainIds: [] });
  assert.deepEqual(
    off.rules.map((rule) => `${rule.id} ${rule.enabled}`),
    ["busy:1 false", "calm:1 false", "busy:8453 false", "calm:8453 false"],
  );
});

test("the schema of one rule, as the settings page checks an edited rule, fills in the defaults", () => {
  assert.deepEqual(alertRuleSettingsSchema.parse(CHEAP_ETH), { ...CHEAP_ETH, forBlocks: 1, cooldownMinutes: 15, enabled: true });
  assert.equal(alertRuleSettingsSchema.safeParse({ ...CHEAP_ETH, percentile: 20 }).success, false);
  assert.equal(alertRuleSettingsSchema.safeParse({ ...CHEAP_ETH, gwei: "0.0000000001" }).success, false);
});

// Property tests: arbitrary settings lists, mixing values that are valid for each field with any JSON at all.

const HORIZON_SECONDS = new Map(CHAINS.map((chain) => [chain.chainId, parseDurationSeconds(chain.historyHorizon ?? "7d")!]));

const ruleArbitrary = fc.record(
  {
    id: fc.oneof(fc.constantFrom("a", "cheap-eth", "x.y_z", "1"), fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,70}$/), fc.jsonValue()),
    chainId: fc.oneof(fc.constantFrom(1, 8453, 6001), fc.integer(), fc.jsonValue()),
    when: fc.oneof(fc.constantFrom("below", "above"), fc.jsonValue()),
    gwei: fc.oneof(
      fc.bigInt({ min: 0n, max: 10n ** 12n }).map(toGweiString),
      fc.stringMatching(/^-?[0-9]{1,4}(\.[0-9]{0,11})?(e[0-9])?$/),
      fc.double(),
      fc.jsonValue(),
    ),
    percentile: fc.oneof(fc.integer({ min: -1, max: 101 }), fc.double(), fc.jsonValue()),
    window: fc.oneof(fc.constantFrom("24h", "2d", "3d", "7d", "8d", "1w", "7200 blocks", "0h"), fc.string(), fc.jsonValue()),
    forBlocks: fc.oneof(fc.integer({ min: -1, max: 1001 }), fc.double(), fc.jsonValue()),
    cooldownMinutes: fc.oneof(fc.double({ min: -1, max: 1500, noNaN: true }), fc.jsonValue()),
    enabled: fc.oneof(fc.boolean(), fc.jsonValue()),
    webhookUrl: fc.oneof(
      fc.constantFrom("https://hooks.example.com/services/x", "http://127.0.0.1:9000/hook", "http://example.com/", "ftp://x", "https://u:p@x.example"),
      fc.webUrl(),
      fc.jsonValue(),
    ),
    label: fc.oneof(fc.string({ maxLength: 70 }), fc.jsonValue()),
    gwie: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
/** A rule that is valid on its own (its id may still be taken by another). */
const validRuleArbitrary = fc
  .tuple(
    fc.record({ id: fc.constantFrom("a", "cheap-eth", "x.y_z", "1"), chainId: fc.constantFrom(1, 8453), when: fc.constantFrom("below", "above") }),
    fc.oneof(
      fc.record({ gwei: fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 12n }).map(toGweiString), fc.integer({ min: 0, max: 1000 })) }),
      fc.record({ percentile: fc.integer({ min: 1, max: 99 }), window: fc.constantFrom("24h", "2d", "7200 blocks") }, { requiredKeys: ["percentile"] }),
    ),
    fc.record(
      {
        forBlocks: fc.integer({ min: 1, max: 1000 }),
        cooldownMinutes: fc.double({ min: 0, max: 1440, noNaN: true }),
        enabled: fc.boolean(),
        webhookUrl: fc.constantFrom("https://hooks.example.com/services/x", "http://127.0.0.1:9000/hook"),
        label: fc.string({ maxLength: 64 }),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([identity, threshold, options]) => ({ ...identity, ...threshold, ...options }));
/** A valid rule with one field changed to anything (a value of another field, any JSON) or removed, or a field added. */
const nearlyValidRuleArbitrary = fc
  .tuple(
    validRuleArbitrary,
    ruleArbitrary,
    fc.constantFrom("id", "chainId", "when", "gwei", "percentile", "window", "forBlocks", "cooldownMinutes", "enabled", "webhookUrl", "label", "gwie"),
  )
  .map(([rule, other, field]) => {
    const changed: Record<string, unknown> = { ...rule };
    if (field in other) changed[field] = other[field];
    else delete changed[field];
    return changed;
  });
/** Values in a list of rules: good, nearly good, anything like a rule, or anything at all. */
const rawRulesArbitrary = fc.array(
  fc.oneof(
    { arbitrary: validRuleArbitrary, weight: 3 },
    { arbitrary: nearlyValidRuleArbitrary, weight: 3 },
    { arbitrary: ruleArbitrary, weight: 1 },
    { arbitrary: fc.jsonValue(), weight: 1 },
  ),
  { maxLength: 12 },
);

/** The fields the rule was given, as the loaded rule should hold them: checked without the loader's code. */
function assertValidRule(rule: AlertRule, raw: Record<string, unknown>): void {
  assert.match(rule.id, /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);
  assert.equal(rule.id, raw.id);
  assert.ok(HORIZON_SECONDS.has(rule.chainId), `chain ${rule.chainId} is followed`);
  assert.equal(rule.chainId, raw.chainId);
  assert.ok(rule.when === "below" || rule.when === "above");
  assert.equal(rule.when, raw.when);
  assert.ok((raw.gwei === undefined) !== (raw.percentile === undefined), "exactly one threshold");
  if (rule.threshold.kind === "fixed") {
    assert.ok(rule.threshold.wei >= 0n);
    const written = String(raw.gwei).trim();
    assert.equal(Number(toGweiString(rule.threshold.wei)), Number(written));
    assert.ok(!/e/i.test(written) && (written.split(".")[1] ?? "").length <= 9);
    assert.equal(raw.window, undefined);
  } else {
    assert.equal(rule.threshold.kind, "percentile", "the fuzzed rules have no fiat threshold");
    if (rule.threshold.kind !== "percentile") return;
    assert.equal(rule.threshold.percentile, raw.percentile);
    assert.ok(Number.isInteger(rule.threshold.percentile) && rule.threshold.percentile >= 1 && rule.threshold.percentile <= 99);
    if (raw.window !== undefined) assert.equal(rule.threshold.window.text, parseWindowSpec(raw.window as string)?.text);
    if (rule.threshold.window.kind === "duration") assert.ok(rule.threshold.window.seconds <= HORIZON_SECONDS.get(rule.chainId)!);
  }
  assert.ok(Number.isInteger(rule.forBlocks) && rule.forBlocks >= 1 && rule.forBlocks <= 1000);
  assert.equal(rule.rearmAfterBlocks, rule.forBlocks);
  assert.ok(rule.cooldownMs >= 0 && rule.cooldownMs <= 24 * 60 * 60_000);
  assert.equal(rule.cooldownGroup, rule.id);
  assert.equal(rule.enabled, raw.enabled ?? true);
  if (rule.webhookUrl !== undefined) assert.equal(webhookUrlProblem(rule.webhookUrl), undefined);
  assert.ok(rule.label === undefined || rule.label.length <= 64);
  assert.equal(raw.gwie, undefined);
  assert.equal(rule.builtIn, undefined);
}

test("property: loadAlertRules never throws, and every rule it returns is valid, unique, and as its settings say", () => {
  let loaded = 0;
  fc.assert(
    fc.property(rawRulesArbitrary, (rawRules) => {
      // The settings file takes any list of rules: parsing it never fails because of one.
      const settings = parseSettings({ version: 3, alerts: rawRules });
      const { rules, problems } = loadAlertRules(settings.alerts, CHAINS, NOTIFICATIONS);
      const users = userRules(rules);
      loaded += users.length;
      assert.equal(new Set(rules.map((rule) => rule.id)).size, rules.length, "ids are unique");
      for (const rule of users) assertValidRule(rule, rawRules.find((raw) => (raw as { id?: unknown } | null)?.id === rule.id) as Record<string, unknown>);
      assert.equal(rules.length - users.length, 2 * CHAINS.length, "the built-in pair of each chain");
      for (const problem of problems) alertRuleProblemSchema.parse(problem);
      // Every rule is either loaded or refused with at least one problem.
      const refused = new Set(problems.map((problem) => problem.rule));
      rawRules.forEach((raw, index) => {
        const id = (raw as { id?: unknown } | null)?.id;
        const refusedByName = refused.has(`#${index + 1}`) || (typeof id === "string" && refused.has(id));
        assert.ok(users.some((rule) => rule.id === id) || refusedByName, `rule #${index + 1} is loaded or refused`);
      });
    }),
    { numRuns: 500 },
  );
  assert.ok(loaded > 500, `the property saw valid rules too (${loaded})`);
});

test("property: a bad rule added anywhere in the list changes none of the other rules", () => {
  const withoutUsableId = fc.oneof(
    fc.jsonValue().filter((value) => typeof value !== "object" || value === null || Array.isArray(value)),
    ruleArbitrary.map(({ id: _id, ...rule }) => ({ ...rule, gwie: "typo" })),
  );
  fc.assert(
    fc.property(rawRulesArbitrary, withoutUsableId, fc.nat(), (rawRules, bad, at) => {
      const place = at % (rawRules.length + 1);
      const before = loadAlertRules(rawRules, CHAINS, NOTIFICATIONS);
      const after = loadAlertRules([...rawRules.slice(0, place), bad, ...rawRules.slice(place)], CHAINS, NOTIFICATIONS);
      assert.deepEqual(after.rules, before.rules);
      assert.ok(after.problems.length > before.problems.length);
    }),
    { numRuns: 300 },
  );
});

test("a rule in money names an action and an amount; each mistake in them is refused on its own", () => {
  const chains = [{ chainId: 1, name: "Ethereum", rpcUrls: ["http://127.0.0.1:1"], blockTimeMs: 12_000 }];
  const notifications = { enabled: false, mutedChainIds: [], enterAfterBlocks: 3, enterMarginPercent: 10, calmAfterBlocks: 10, cooldownMinutes: 15 };
  const own = [{ id: "bridge", name: "Bridge", gas: 120_000n, txBytes: 420 }];
  const { rules, problems } = loadAlertRules(
    [
      { id: "cheap-swap", chainId: 1, when: "below", fiat: "1.50", action: "swap" },
      { id: "cheap-bridge", chainId: 1, when: "below", fiat: "3", action: "bridge" },
      { id: "no-action", chainId: 1, when: "below", fiat: "1.50" },
      { id: "unknown-action", chainId: 1, when: "below", fiat: "1.50", action: "teleport" },
      { id: "action-alone", chainId: 1, when: "below", gwei: "8", action: "swap" },
      { id: "both", chainId: 1, when: "below", gwei: "8", fiat: "1.50", action: "swap" },
      { id: "zero", chainId: 1, when: "below", fiat: "0.00", action: "swap" },
      { id: "number", chainId: 1, when: "below", fiat: 1.5, action: "swap" },
      { id: "blob-money", chainId: 1, when: "below", fiat: "1.50", action: "swap", fee: "blob" },
    ],
    chains,
    notifications,
    [...DEFAULT_ACTIONS, ...own],
  );
  const user = rules.filter((rule) => rule.builtIn === undefined);
  assert.deepEqual(
    user.map((rule) => [
      rule.id,
      rule.threshold.kind === "fiat" ? `${rule.threshold.fiat} ${rule.threshold.action.id} ${rule.threshold.action.gas}` : rule.threshold.kind,
    ]),
    [
      ["cheap-swap", "1.50 swap 106467"],
      ["cheap-bridge", "3 bridge 120000"],
    ],
  );
  const message = (rule: string, field: string) => problems.find((problem) => problem.rule === rule && problem.field === field)?.message ?? "";
  assert.match(message("no-action", "action"), /^is missing: a fiat rule names the action/);
  assert.match(message("unknown-action", "action"), /^"teleport" is not an action: use one of transfer, erc20-transfer, swap, nft-transfer, bridge/);
  assert.match(message("action-alone", "action"), /^only applies to a fiat rule/);
  assert.match(message("both", "fiat"), /^cannot be set together with gwei/);
  assert.match(message("zero", "fiat"), /^must be more than 0/);
  assert.match(message("number", "fiat"), /^must be an amount of money in quotes/);
  // An action's cost is its gas at the base fee and tip: a blob base fee has no part in it.
  assert.match(message("blob-money", "fee"), /^does not apply to a fiat rule/);
});

test("a blob rule on a chain without a blob market of its own (a rollup, by default or by its settings) is refused, naming fee", () => {
  const chains = chainPlansFrom([
    { chainId: 1, rpcUrls: ["https://eth.example/rpc"] },
    { chainId: 10, rpcUrls: ["https://op.example/rpc"] },
    { chainId: 8453, rpcUrls: ["https://base.example/rpc"] },
    { chainId: 7777777, name: "Zora", rpcUrls: ["https://zora.example/rpc"], blobMarket: false },
    { chainId: 31337, rpcUrls: ["http://127.0.0.1:8545"] },
  ]);
  const { rules, problems } = loadAlertRules(
    [
      { id: "eth-blobs", chainId: 1, when: "above", gwei: "1", fee: "blob" },
      { id: "op-blobs", chainId: 10, when: "above", gwei: "1", fee: "blob" },
      { id: "base-blobs", chainId: 8453, when: "above", percentile: 90, fee: "blob" },
      { id: "zora-blobs", chainId: 7777777, when: "below", gwei: "0.001", fee: "blob" },
      { id: "local-blobs", chainId: 31337, when: "above", gwei: "1", fee: "blob" },
      { id: "base-fee", chainId: 8453, when: "above", gwei: "1", fee: "base" },
    ],
    chains,
    NOTIFICATIONS,
  );
  assert.deepEqual(
    userRules(rules).map((rule) => rule.id),
    ["eth-blobs", "local-blobs", "base-fee"],
  );
  assert.deepEqual(named(problems), ["op-blobs fee", "base-blobs fee", "zora-blobs fee"]);
  assert.match(messageOf(problems, "op-blobs", "fee"), /^"blob" does not apply to OP Mainnet \(10\): it has no blob market of its own/);
  assert.match(messageOf(problems, "zora-blobs", "fee"), /^"blob" does not apply to Zora \(7777777\)/);
});
