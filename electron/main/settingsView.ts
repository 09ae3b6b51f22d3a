// The settings page's view of the settings and the changes it may make, as pure functions (ipc.ts wires them).
import { loadAlertRules } from "../../shared/alerts/loadAlertRules.ts";
import { actionsWith } from "../../shared/core/costs/defaultActions.ts";
import type { Settings } from "../../shared/config/settings.ts";
import { defaultChainSettings } from "../../shared/config/defaultChainSettings.ts";
import type { SecretCipher } from "../../shared/keys/secretCipher.ts";
import { listApiKeys } from "../../shared/config/storedApiKeys.ts";
import { chainPlansFrom } from "../../shared/service/chainPlan.ts";
import type { AlertRuleProblem } from "../../shared/wire/alerts.ts";
import type { ServiceState, SettingsView } from "../bridge/bridgeTypes.ts";
import { EDITABLE_SETTINGS, type SettingsPatch } from "../bridge/settingsPatch.ts";

export class SettingsPatchError extends Error {
  override name = "SettingsPatchError";
}

/** A patch refused for its alert rules: `problems` name each rule and field at fault, `message` says the same in words. */
export class AlertRulesRefusedError extends SettingsPatchError {
  override name = "AlertRulesRefusedError";
  readonly problems: readonly AlertRuleProblem[];

  constructor(problems: readonly AlertRuleProblem[]) {
    super(refusalMessage(problems));
    this.problems = problems;
  }
}

/**
 * Applies a patch from the page. Only the page's own settings may change: anything else (host, CORS, keys) is refused
 * by name, so that a compromised page cannot open the API to the network. Alert rules the patch adds or changes must
 * load (see refusedAlertRules): else AlertRulesRefusedError. The result is validated by the store.
 */
export function applySettingsPatch(settings: Settings, patch: unknown): Settings {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) throw new SettingsPatchError("a settings change is an object");
  const unknown = Object.keys(patch).filter((key) => !(EDITABLE_SETTINGS as readonly string[]).includes(key));
  if (unknown.length > 0) throw new SettingsPatchError(`the settings page cannot change ${unknown.join(", ")}`);
  const next: Record<string, unknown> = { ...settings };
  for (const [key, value] of Object.entries(patch as SettingsPatch)) {
    // `chains: null` and `trayChainId: null` go back to the defaults (JSON has no undefined).
    if (value === null || value === undefined) delete next[key];
    else next[key] = value;
  }
  const patched = next as Settings;
  if (Array.isArray((patch as SettingsPatch).alerts)) {
    const refused = refusedAlertRules(settings.alerts, patched);
    if (refused.length > 0) throw new AlertRulesRefusedError(refused);
  }
  return patched;
}

/**
 * The problems, as the service would report them once the patch is stored, of each rule the patch adds or changes:
 * its own schema (`alertRuleSettingsSchema`), its chain (followed by the patched settings), its window (within that
 * chain's history horizon) and its id (not another rule's). A rule the file already holds, sent back unchanged, is
 * not judged again: a rule refused since it was written by hand (or since its chain was removed) must not stop the
 * user from saving another; the page lists it among `alertProblems` until it is fixed or deleted.
 */
function refusedAlertRules(storedRules: readonly unknown[], patched: Settings): AlertRuleProblem[] {
  const rules = patched.alerts;
  const stored = new Set(storedRules.map(canonicalJson));
  const isNewOrChanged = (index: number) => index < rules.length && !stored.has(canonicalJson(rules[index]));
  const { problems } = loadAlertRules(rules, chainPlansFrom(patched.chains), patched.notifications, actionsWith(patched.actions));
  return problems.filter((problem) => placesNamedBy(problem.rule, rules).some(isNewOrChanged));
}

/** The 0-based places of the rules a problem names: `#<n>` by its 1-based place, else every rule with that id. */
function placesNamedBy(name: string, rules: readonly unknown[]): number[] {
  const place = /^#([0-9]+)$/.exec(name);
  if (place) return [Number(place[1]) - 1];
  return rules.flatMap((rule, index) => (typeof rule === "object" && rule !== null && (rule as { id?: unknown }).id === name ? [index] : []));
}

function refusalMessage(problems: readonly AlertRuleProblem[]): string {
  const lines = problems.map(({ rule, field, message }) => `alert rule ${rule}, ${field}: ${message}`);
  return lines.length === 1 ? `${lines[0]}. Nothing was saved.` : `These alert rules cannot be saved (nothing was):\n${lines.join("\n")}`;
}

/** JSON with every object's keys sorted, so that a rule the page rebuilt in another key order counts as unchanged. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === "object" && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

export function settingsViewOf(
  settings: Settings,
  cipher: SecretCipher,
  service: ServiceState,
  notice: string | undefined,
  settingsPath: string,
): SettingsView {
  const { port, chains, notifications, alerts, theme, startAtLogin, trayChainId, currency, actions, trayAction } = settings;
  return {
    settings: { port, chains, notifications, alerts, theme, startAtLogin, trayChainId, currency, actions, trayAction },
    defaultChains: defaultChainSettings(),
    alertProblems: loadAlertRules(alerts, chainPlansFrom(chains), notifications, actionsWith(settings.actions)).problems,
    apiKeys: listApiKeys(settings, cipher),
    keyStorage: { encrypted: cipher.encrypts, description: cipher.description },
    notice,
    service,
    settingsPath,
  };
}
