// The settings page's only way to the main process: the preload bridge's settings calls (declared once in
// electron/bridge/bridgeCalls.ts). In a browser (npm run serve) there is no bridge and so no settings page:
// settings.json is edited by hand there.
import type { SettingsBridge } from "../../../electron/bridge/bridgeCalls.ts";
import type { BridgeResult, SettingsView } from "../../../electron/bridge/bridgeTypes.ts";

export { failureMessage } from "./failureMessage.ts";
export type { SettingsRefusal } from "./settingsRefusal.ts";

export type { SettingsBridge } from "../../../electron/bridge/bridgeCalls.ts";
export type {
  ActionSettings,
  ApiKeyView,
  BridgeResult,
  ChainSettings,
  CreatedApiKey,
  EditableSettings,
  NotificationSettings,
  ServiceState,
  SettingsView,
} from "../../../electron/bridge/bridgeTypes.ts";
export type { SettingsPatch } from "../../../electron/bridge/settingsPatch.ts";

/** The desktop app's settings calls, or undefined in a browser. */
export function desktopSettings(): SettingsBridge | undefined {
  return window.gasfeesDesktop?.settings;
}

/** A bridge answer as a value, or an Error carrying the main process's message (which names the problem). */
export function unwrap<T>(result: BridgeResult<T>): T {
  if (result.ok) return result.value;
  throw new Error(result.error);
}

/** What every part of the settings page is given: the current view, the bridge, and how to report a new view or an error. */
export interface SettingsSectionProps {
  readonly view: SettingsView;
  readonly bridge: SettingsBridge;
  readonly onView: (view: SettingsView) => void;
  readonly onError: (message: string | undefined) => void;
}
