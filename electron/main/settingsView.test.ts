import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSettings } from "../../shared/config/settings.ts";
import { plaintextCipher } from "../../shared/keys/secretCipher.ts";
import { applySettingsPatch, SettingsPatchError, settingsViewOf } from "./settingsView.ts";

test("the page may change its own settings, and null returns a setting to its default", () => {
  const settings = parseSettings({ chains: [{ chainId: 1, rpcUrls: ["https://eth.example"] }], trayChainId: 1 });
  const next = parseSettings(applySettingsPatch(settings, { port: 9000, theme: "dark", chains: null, trayChainId: null }));
  assert.equal(next.port, 9000);
  assert.equal(next.theme, "dark");
  assert.equal(next.chains, undefined);
  assert.equal(next.trayChainId, undefined);
});

test("the page may set the costs' currency, the user's actions and the tray's action; the settings schema judges them", () => {
  const settings = parseSettings({});
  const action = { id: "bridge", name: "Bridge out", gas: 250_000, txBytes: 600 };
  const next = parseSettings(applySettingsPatch(settings, { currency: "EUR", actions: [action], trayAction: "swap" }));
  assert.equal(next.currency, "EUR");
  assert.deepEqual(next.actions, [action]);
  assert.equal(next.trayAction, "swap");
  const view = settingsViewOf(next, plaintextCipher, { state: "paused" }, undefined, "/x/settings.json");
  assert.deepEqual([view.settings.currency, view.settings.actions, view.settings.trayAction], ["EUR", [action], "swap"]);
  // null goes back to the defaults: USD, no actions of one's own, the base fee in the tray.
  const reset = parseSettings(applySettingsPatch(next, { currency: null, actions: null, trayAction: null }));
  assert.deepEqual([reset.currency, reset.actions, reset.trayAction], ["USD", [], undefined]);
  // What the schema refuses is refused when the store validates the result.
  assert.throws(() => parseSettings(applySettingsPatch(settings, { actions: [{ ...action, gas: 100 }] })), /at least 21,000 gas/);
  assert.throws(() => parseSettings(applySettingsPatch(settings, { currency: "euro" })), /three capital letters/);
});

test("the page cannot open the API to the network, change CORS, or write keys", () => {
  const settings = parseSettings({});
  for (const patch of [
    { host: "0.0.0.0" },
    { corsOrigins: ["https://evil.example"] },
    { apiKeys: [] },
    { allowedHosts: ["evil"] },
    { port: 1, rateLimit: {} },
  ]) {
    assert.throws(() => applySettingsPatch(settings, patch), SettingsPatchError, JSON.stringify(patch));
  }
  for (const patch of [null, [], "port"]) assert.throws(() => applySettingsPatch(settings, patch), SettingsPatchError);
});

test("the view lists keys without their values and says how they are stored", () => {
  const key = "0123456789abcdef0123456789abcdef";
  const view = settingsViewOf(parseSettings({ apiKeys: [{ key, label: "bot" }] }), plaintextCipher, { state: "paused" }, undefined, "/x/settings.json");
  assert.equal(JSON.stringify(view).includes(key), false);
  assert.equal(view.apiKeys[0]?.hint, "0123…cdef");
  assert.equal(view.keyStorage.encrypted, false);
  assert.match(view.keyStorage.description, /plain text/);
  assert.ok(view.defaultChains.some((chain) => chain.chainId === 1 && chain.rpcUrls.length > 0));
});

// Alert rules from the page: the whole list comes in each patch; each rule it adds or changes must load.
const LOCAL_CHAIN = { chainId: 31337, name: "Local", rpcUrls: ["http://127.0.0.1:8545"], historyHorizon: "2d" };
const CHEAP = { id: "cheap", chainId: 31337, when: "below", gwei: "8" };
const SPIKE = { id: "spike", chainId: 31337, when: "above", percentile: 95, window: "1d", label: "Local spike" };

const withRules = (alerts: unknown[]) => parseSettings({ port: 9001, theme: "dark", chains: [LOCAL_CHAIN], alerts });

/** The refusal of `patch` on `settings`, which must be one. */
function refusal(settings: ReturnType<typeof parseSettings>, patch: unknown): string {
  try {
    applySettingsPatch(settings, patch);
  } catch (error) {
    assert.ok(error instanceof SettingsPatchError, String(error));
    return error.message;
  }
  return assert.fail(`${JSON.stringify(patch)} was accepted`);
}

test("a good rule is stored after the others, which are kept as they were, and so is every other setting", () => {
  const settings = withRules([CHEAP]);
  const next = parseSettings(applySettingsPatch(settings, { alerts: [CHEAP, SPIKE] }));
  assert.deepEqual(next.alerts, [CHEAP, SPIKE]);
  assert.equal(next.port, 9001);
  assert.equal(next.theme, "dark");
  assert.deepEqual(next.chains, settings.chains);
  assert.deepEqual(next.notifications, settings.notifications);
  assert.deepEqual(parseSettings(applySettingsPatch(next, { alerts: null })).alerts, [], "null deletes every rule");
});

test("a rule that fails the cross-checks is refused with a message naming the rule and the field; nothing changes", () => {
  const settings = withRules([CHEAP]);
  const cases: Array<[rule: Record<string, unknown>, expected: RegExp]> = [
    [{ ...SPIKE, chainId: 999 }, /^alert rule spike, chainId: 999 is not a followed chain; add it under chains.*31337 \(Local\)/],
    [{ ...SPIKE, window: "3d" }, /^alert rule spike, window: "3d" is longer than the history Local \(31337\) keeps \(its historyHorizon, 2d\)/],
    [{ ...SPIKE, id: "cheap" }, /^alert rule cheap, id: is also the id of rule #1/],
  ];
  for (const [rule, expected] of cases) {
    assert.match(refusal(settings, { alerts: [CHEAP, rule] }), expected, JSON.stringify(rule));
    assert.match(refusal(settings, { alerts: [CHEAP, rule] }), /Nothing was saved/);
  }
  assert.deepEqual(settings.alerts, [CHEAP], "the settings given are left as they were");
});

test("a rule that fails its own schema is refused naming the rule (by its place when it has no usable id) and each field", () => {
  const settings = withRules([CHEAP]);
  assert.match(refusal(settings, { alerts: [CHEAP, { ...SPIKE, percentile: 150 }] }), /^alert rule spike, percentile: must be a whole number from 1 to 99/);
  assert.match(refusal(settings, { alerts: [CHEAP, { ...CHEAP, id: "neg", gwei: "-1" }] }), /^alert rule neg, gwei: /);
  assert.match(
    refusal(settings, { alerts: [CHEAP, { ...CHEAP, id: "hook", webhookUrl: "http://hooks.example.com/x" }] }),
    /^alert rule hook, webhookUrl: must be https, or http to this computer/,
  );
  const several = refusal(settings, { alerts: [CHEAP, { chainId: 999, when: "sideways", gwei: "8" }] });
  assert.match(several, /^These alert rules cannot be saved \(nothing was\):\n/);
  assert.match(several, /^alert rule #2, id: is missing/m);
  assert.match(several, /^alert rule #2, chainId: 999 is not a followed chain/m);
  assert.match(several, /^alert rule #2, when: must be "below" or "above"/m);
  assert.match(refusal(settings, { alerts: [CHEAP, "below 8"] }), /^alert rule #2, \(rule\): is "below 8", not a rule/);
});

test("a rule the file already holds, refused by the service, does not stop another from being saved, in any key order", () => {
  // Written by hand: its chain is not followed. The service refuses it, and the page lists it as refused.
  const orphan = { id: "orphan", chainId: 10, when: "above", gwei: "50" };
  const settings = withRules([orphan, CHEAP]);
  const view = settingsViewOf(settings, plaintextCipher, { state: "paused" }, undefined, "/x/settings.json");
  assert.deepEqual(
    view.alertProblems.map(({ rule, field }) => `${rule} ${field}`),
    ["orphan chainId"],
  );
  const sentBack = { gwei: "50", when: "above", chainId: 10, id: "orphan" };
  assert.deepEqual(parseSettings(applySettingsPatch(settings, { alerts: [sentBack, CHEAP, SPIKE] })).alerts, [sentBack, CHEAP, SPIKE]);
  // Changed, it is judged like a new rule.
  assert.match(refusal(settings, { alerts: [{ ...orphan, gwei: "60" }, CHEAP] }), /^alert rule orphan, chainId: 10 is not a followed chain/);
});

test("the rules of a patch are checked against the chains of the same patch", () => {
  const settings = withRules([CHEAP]);
  const base = { chainId: 8453, rpcUrls: ["https://base.example/rpc"], historyHorizon: "7d" };
  const onBase = { ...SPIKE, id: "base-spike", chainId: 8453, window: "3d" };
  assert.deepEqual(parseSettings(applySettingsPatch(settings, { chains: [LOCAL_CHAIN, base], alerts: [CHEAP, onBase] })).alerts, [CHEAP, onBase]);
  assert.match(
    refusal(settings, { chains: [LOCAL_CHAIN, { ...base, historyHorizon: "2d" }], alerts: [CHEAP, onBase] }),
    /^alert rule base-spike, window: "3d" is longer than the history/,
  );
});

test("the view holds the rules as stored, and no problems when every rule loads", () => {
  const view = settingsViewOf(withRules([CHEAP, SPIKE]), plaintextCipher, { state: "paused" }, undefined, "/x/settings.json");
  assert.deepEqual(view.settings.alerts, [CHEAP, SPIKE]);
  assert.deepEqual(view.alertProblems, []);
});
