// The preload bridge, declared once: the preload implements it (electron/preload/index.ts), the main process answers
// its calls (electron/main/ipc.ts), and the renderer imports these types only. Named functions and plain data only:
// never ipcRenderer, never a Node object.
import type { ChainSettings, NotificationSettings, Settings } from "../../shared/config/settings.ts";
import type { ApiKeyView } from "../../shared/keys/apiKeyView.ts";

export type { ApiKeyView } from "../../shared/keys/apiKeyView.ts";
export type { ChainSettings, NotificationSettings } from "../../shared/config/settings.ts";

/** The local API as the desktop app runs it. */
export type ServiceState =
  | { readonly state: "stopped" }
  | { readonly state: "starting"; readonly port: number }
  | { readonly state: "running"; readonly url: string; readonly port: number }
  | { readonly state: "paused" }
  | { readonly state: "port-in-use"; readonly port: number; readonly message: string }
  | { readonly state: "failed"; readonly message: string };

/** The settings the page edits (keys are managed by their own calls and listed without their values). */
export type EditableSettings = Pick<Settings, "port" | "chains" | "notifications" | "theme" | "startAtLogin" | "trayChainId">;

export interface SettingsView {
  readonly settings: EditableSettings;
  /** The chains followed when `settings.chains` is unset, so that the page can show and copy them. */
  readonly defaultChains: readonly ChainSettings[];
  readonly apiKeys: readonly ApiKeyView[];
  /** Whether keys are encrypted by the system's key store, in words for the page. */
  readonly keyStorage: { readonly encrypted: boolean; readonly description: string };
  /** Set when the settings file was corrupt or from a newer version and was replaced by defaults. */
  readonly notice: string | undefined;
  readonly service: ServiceState;
  readonly settingsPath: string;
}

/** A change to some settings; validated as a whole in the main process. `null` returns a setting to its default. */
export type SettingsPatch = { readonly [K in keyof EditableSettings]?: EditableSettings[K] | null };

export type BridgeResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export interface CreatedApiKey {
  readonly id: string;
  readonly key: string;
  /** Present when the key requires its secret. Shown once; "copy" can fetch both again later. */
  readonly secret?: string;
}

export interface SettingsBridge {
  get(): Promise<SettingsView>;
  update(patch: SettingsPatch): Promise<BridgeResult<SettingsView>>;
  createApiKey(options: { readonly label?: string; readonly requireSecret?: boolean }): Promise<BridgeResult<CreatedApiKey>>;
  revokeApiKey(id: string): Promise<BridgeResult<SettingsView>>;
  /** Copies `key` (or `key:secret`) to the clipboard in the main process. */
  copyApiKey(id: string): Promise<BridgeResult<true>>;
  /** Picks a free port, stores it and restarts the API on it (the answer to "port in use"). */
  useFreePort(): Promise<BridgeResult<SettingsView>>;
  /** Calls `listener` whenever the settings or the service state change; returns the function that stops it. */
  onChange(listener: (view: SettingsView) => void): () => void;
}

export interface GasfeesDesktopBridge {
  /** The local API's base URL, such as `http://127.0.0.1:8950`, without a trailing slash (fixed for the page's life). */
  readonly baseUrl: string;
  /** The dashboard's session token for this run of the app (not a user key). */
  readonly token: string;
  readonly platform: "darwin" | "win32" | "linux" | "other";
  readonly settings: SettingsBridge;
  /** Opens an https link (or http to this computer) in the user's browser, after the main process checks it. */
  openExternal(url: string): Promise<boolean>;
}

/** The IPC channels, one per bridge call. */
export const IPC = {
  connection: "gasfees:connection",
  settingsGet: "gasfees:settings:get",
  settingsUpdate: "gasfees:settings:update",
  createApiKey: "gasfees:keys:create",
  revokeApiKey: "gasfees:keys:revoke",
  copyApiKey: "gasfees:keys:copy",
  useFreePort: "gasfees:service:use-free-port",
  changed: "gasfees:settings:changed",
  openExternal: "gasfees:open-external",
} as const;
