// The settings page's view of the settings and the changes it may make, as pure functions (ipc.ts wires them).
import type { Settings } from "../../shared/config/settings.ts";
import { defaultChainSettings } from "../../shared/config/defaultChainSettings.ts";
import type { SecretCipher } from "../../shared/keys/secretCipher.ts";
import { listApiKeys } from "../../shared/config/storedApiKeys.ts";
import type { ServiceState, SettingsView } from "../bridge/bridgeTypes.ts";
import { EDITABLE_SETTINGS, type SettingsPatch } from "../bridge/settingsPatch.ts";

export class SettingsPatchError extends Error {
  override name = "SettingsPatchError";
}

/**
 * Applies a patch from the page. Only the page's own settings may change: anything else (host, CORS, keys) is refused
 * by name, so that a compromised page cannot open the API to the network. The result is validated by the store.
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
  return next as Settings;
}

export function settingsViewOf(
  settings: Settings,
  cipher: SecretCipher,
  service: ServiceState,
  notice: string | undefined,
  settingsPath: string,
): SettingsView {
  const { port, chains, notifications, theme, startAtLogin, trayChainId } = settings;
  return {
    settings: { port, chains, notifications, theme, startAtLogin, trayChainId },
    defaultChains: defaultChainSettings(),
    apiKeys: listApiKeys(settings, cipher),
    keyStorage: { encrypted: cipher.encrypts, description: cipher.description },
    notice,
    service,
    settingsPath,
  };
}
