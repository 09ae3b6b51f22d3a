// The main process's answers to the page's bridge calls (BRIDGE_CALLS), without Electron: what needs Electron (the
// clipboard, reloading the window, the user's browser) is passed in. ipc.ts registers these with ipcMain; the settings
// page's Chromium tests answer the page with the same functions.
import { SettingsError } from "../../shared/config/settings.ts";
import type { SettingsStore } from "../../shared/config/settingsStore.ts";
import { ApiKeyNotFoundError } from "../../shared/config/storedApiKeys.ts";
import type { Logger } from "../../shared/log/logger.ts";
import type { BridgeImplementation } from "../bridge/bridgeCalls.ts";
import type { BridgeFailure, BridgeResult, SettingsView } from "../bridge/bridgeTypes.ts";
import { findFreePort, type ServiceHost } from "./serviceHost.ts";
import { AlertRulesRefusedError, applySettingsPatch, SettingsPatchError } from "./settingsView.ts";

export interface SettingsCallsContext {
  readonly store: SettingsStore;
  readonly host: ServiceHost;
  readonly logger: Logger;
  /** The settings page's view as of now. */
  readonly viewNow: () => SettingsView;
  /** Puts a key (or `key:secret`) on the system clipboard (Electron's clipboard.writeText, a promise since Electron 44). */
  readonly writeClipboard: (text: string) => void | Promise<void>;
  /** Reloads the window (after a new dashboard token, so that the page asks for it). */
  readonly reloadWindow: () => void;
  /** Opens a checked link in the user's browser; false when refused. */
  readonly openExternal: (url: string) => boolean | Promise<boolean>;
}

/**
 * Errors the user can act on are shown as they are (refused alert rules with each problem too); anything else is
 * logged and answered in general terms.
 */
function failure(error: unknown, logger: Logger): BridgeFailure {
  if (error instanceof AlertRulesRefusedError) return { ok: false, error: error.message, alertProblems: error.problems };
  if (error instanceof SettingsError || error instanceof SettingsPatchError || error instanceof ApiKeyNotFoundError) {
    return { ok: false, error: error.message, alertProblems: [] };
  }
  logger.error("a settings call failed", { error: String(error) });
  return { ok: false, error: `Something went wrong: ${(error as Error).message}`, alertProblems: [] };
}

export function settingsCalls(context: SettingsCallsContext): BridgeImplementation {
  const { store, host, logger, viewNow } = context;
  const result = async <T>(run: () => Promise<T>): Promise<BridgeResult<T>> => {
    try {
      return { ok: true, value: await run() };
    } catch (error) {
      return failure(error, logger);
    }
  };
  return {
    settings: {
      get: () => viewNow(),
      update: (patch) =>
        result(async () => {
          await store.update((settings) => applySettingsPatch(settings, patch));
          return viewNow();
        }),
      createApiKey: (options) => result(() => host.createApiKey(options)),
      revokeApiKey: (id) =>
        result(async () => {
          await host.revokeApiKey(id);
          return viewNow();
        }),
      copyApiKey: (id) =>
        result(async () => {
          const credentials = host.revealApiKey(id);
          if (!credentials) throw new SettingsPatchError("this key is encrypted by a key store this app cannot open: revoke it and create a new one");
          // Answered once the clipboard holds the key: a write that fails is the call's failure, not a lost rejection.
          await context.writeClipboard(credentials.secret === undefined ? credentials.key : `${credentials.key}:${credentials.secret}`);
          return true as const;
        }),
      useFreePort: () =>
        result(async () => {
          const port = await findFreePort();
          await store.update((settings) => ({ ...settings, port }));
          await host.restart();
          return viewNow();
        }),
      rotateDashboardToken: () =>
        result(async () => {
          await host.rotateDashboardToken();
          logger.info("the dashboard's token was rotated: the old one is refused, and the window reloads with the new one");
          // After this answer is sent: the page loads again, and the preload asks for the new token.
          setImmediate(() => context.reloadWindow());
          return true as const;
        }),
    },
    openExternal: (url) => context.openExternal(url),
  };
}
