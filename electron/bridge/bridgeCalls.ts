// The desktop bridge, declared once: each call's channel, its arguments' schema and its result type. The preload
// builds the page's functions from this list and the main process registers a validated handler for each call, so
// the two sides cannot drift apart. The page gets named functions only, never ipcRenderer.
import { z } from "zod";
import { sealedApiKeySchema } from "../../shared/config/settings.ts";
import type { BridgeResult, CreatedApiKey, DesktopConnection, SettingsView } from "./bridgeTypes.ts";
import { type BridgeApiOf, type BridgeDeclarations, type BridgeImplementationOf, invokeCall, pushEvent, returns } from "./defineCalls.ts";
import { settingsPatchSchema } from "./settingsPatch.ts";

/** A key's id as the settings page knows it (the digest prefix of the key, never the key). */
const apiKeyId = sealedApiKeySchema.shape.id;

export const BRIDGE_CALLS = {
  settings: {
    get: invokeCall("gasfees:settings:get", z.tuple([]), returns<SettingsView>()),
    update: invokeCall("gasfees:settings:update", z.tuple([settingsPatchSchema]), returns<BridgeResult<SettingsView>>()),
    createApiKey: invokeCall(
      "gasfees:keys:create",
      z.tuple([z.strictObject({ label: z.string().max(64).optional(), requireSecret: z.boolean().optional() })]),
      returns<BridgeResult<CreatedApiKey>>(),
    ),
    revokeApiKey: invokeCall("gasfees:keys:revoke", z.tuple([apiKeyId]), returns<BridgeResult<SettingsView>>()),
    /** Copies `key` (or `key:secret`) to the clipboard in the main process: the key never reaches the page. */
    copyApiKey: invokeCall("gasfees:keys:copy", z.tuple([apiKeyId]), returns<BridgeResult<true>>()),
    /** Picks a free port, stores it and restarts the API on it (the answer to "port in use"). */
    useFreePort: invokeCall("gasfees:service:use-free-port", z.tuple([]), returns<BridgeResult<SettingsView>>()),
    /** Stores a new dashboard token, refuses the old one at once and reloads the window with the new one. */
    rotateDashboardToken: invokeCall("gasfees:dashboard-token:rotate", z.tuple([]), returns<BridgeResult<true>>()),
    /** Whenever the settings or the service state change; returns the function that stops it. */
    onChange: pushEvent("gasfees:settings:changed", returns<SettingsView>()),
  },
  /** Opens an https link (or http to this computer) in the user's browser, after the main process checks it. */
  openExternal: invokeCall("gasfees:open-external", z.tuple([z.string().max(2048)]), returns<boolean>()),
} as const satisfies BridgeDeclarations;

export { CONNECTION_CHANNEL, type ConnectionReply } from "./connectionChannel.ts";

export type BridgeCalls = typeof BRIDGE_CALLS;
export type BridgeImplementation = BridgeImplementationOf<BridgeCalls>;

/** What the preload exposes on `window.gasfeesDesktop`. */
export type GasfeesDesktopBridge = DesktopConnection & BridgeApiOf<BridgeCalls>;
export type SettingsBridge = GasfeesDesktopBridge["settings"];
