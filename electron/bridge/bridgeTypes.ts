// The data that crosses the desktop bridge, as types: the settings page's view, the service's state, call results.
// Plain data only (never a Node or Electron object); the renderer imports these types through the bridge.
import type { ChainSettings, Settings } from "../../shared/config/settings.ts";
import type { ApiKeyView } from "../../shared/config/apiKeyView.ts";
import type { AlertRuleProblem } from "../../shared/wire/alerts.ts";

export type { ApiKeyView } from "../../shared/config/apiKeyView.ts";
export type { AlertRuleSettingsInput } from "../../shared/wire/alertRuleSchema.ts";
export type { ActionSettings, ChainSettings, NotificationSettings } from "../../shared/config/settings.ts";
export type { AlertRuleProblem } from "../../shared/wire/alerts.ts";

/** The local API as the desktop app runs it. */
export type ServiceState =
  | { readonly state: "stopped" }
  | { readonly state: "starting"; readonly port: number }
  | { readonly state: "running"; readonly url: string; readonly port: number }
  | { readonly state: "paused" }
  | { readonly state: "port-in-use"; readonly port: number; readonly message: string }
  | { readonly state: "failed"; readonly message: string };

/**
 * The settings the page edits (keys are managed by their own calls and listed without their values). `alerts` is the
 * settings file's list of rules as it is, a rule the service refuses included (see `alertProblems`).
 */
export type EditableSettings = Pick<
  Settings,
  "port" | "chains" | "notifications" | "alerts" | "theme" | "startAtLogin" | "trayChainId" | "currency" | "actions" | "trayAction"
>;

export interface SettingsView {
  readonly settings: EditableSettings;
  /** The chains followed when `settings.chains` is unset, so that the page can show and copy them. */
  readonly defaultChains: readonly ChainSettings[];
  /**
   * Why the service refuses some of `settings.alerts` (a file edited by hand, or a chain removed since): each names the
   * rule (its id, or `#<n>` by its place) and the field. A refused rule runs nowhere until it is fixed or deleted. Each
   * rule's live state (armed, firing, last fired) is the API's `GET /alerts`, not a setting.
   */
  readonly alertProblems: readonly AlertRuleProblem[];
  readonly apiKeys: readonly ApiKeyView[];
  /** Whether keys are encrypted by the system's key store, in words for the page. */
  readonly keyStorage: { readonly encrypted: boolean; readonly description: string };
  /** Set when the settings file was corrupt or from a newer version and was replaced by defaults. */
  readonly notice: string | undefined;
  readonly service: ServiceState;
  readonly settingsPath: string;
}

/** The answer of a call that can fail for a reason the user can act on (the message says what to do). */
export type BridgeResult<T> = { readonly ok: true; readonly value: T } | BridgeFailure;

export interface BridgeFailure {
  readonly ok: false;
  /** What went wrong and what to do, in words. */
  readonly error: string;
  /**
   * When alert rules were refused (a settings update), each rule and field at fault, so that the page shows each
   * problem beside its field without reading `error`, which says the same in words. Empty otherwise.
   */
  readonly alertProblems: readonly AlertRuleProblem[];
}

export interface CreatedApiKey {
  readonly id: string;
  readonly key: string;
  /** Present when the key requires its secret. Shown once; "copy" can fetch both again later. */
  readonly secret?: string;
}

/** What the page knows before its scripts run: where the local API is and the dashboard's token. */
export interface DesktopConnection {
  /** The local API's base URL, such as `http://127.0.0.1:8950`, without a trailing slash (fixed for the page's life). */
  readonly baseUrl: string;
  /** The dashboard's token (settings' `dashboardToken`, not a user key); rotating it reloads the page. */
  readonly token: string;
  readonly platform: "darwin" | "win32" | "linux" | "other";
}
