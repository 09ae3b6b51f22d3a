import { type BrowserWindow, clipboard, type IpcMainEvent, type IpcMainInvokeEvent, ipcMain } from "electron";
import { SettingsError } from "../../shared/config/settings.ts";
import type { SettingsStore } from "../../shared/config/settingsStore.ts";
import { ApiKeyNotFoundError } from "../../shared/keys/storedApiKeys.ts";
import type { SecretCipher } from "../../shared/keys/secretCipher.ts";
import type { Logger } from "../../shared/log/logger.ts";
import { type BridgeResult, IPC, type SettingsView } from "../preload/bridge.ts";
import { isAppUrl } from "./security.ts";
import { findFreePort, type ServiceHost } from "./serviceHost.ts";
import { applySettingsPatch, SettingsPatchError, settingsViewOf } from "./settingsView.ts";
import { openExternalChecked } from "./window.ts";

export interface IpcContext {
  readonly store: SettingsStore;
  readonly host: ServiceHost;
  readonly cipher: SecretCipher;
  readonly logger: Logger;
  readonly mainWindow: () => BrowserWindow | undefined;
}

/** Errors the user can act on are shown as they are; anything else is logged and answered in general terms. */
function failure(error: unknown, logger: Logger): { ok: false; error: string } {
  if (error instanceof SettingsError || error instanceof SettingsPatchError || error instanceof ApiKeyNotFoundError) {
    return { ok: false, error: error.message };
  }
  logger.error("a settings call failed", { error: String(error) });
  return { ok: false, error: `Something went wrong: ${(error as Error).message}` };
}

/**
 * The main process's side of the bridge. Every call checks its sender: the main window's own web contents, on a
 * frame of the app's origin (not a subframe, not another page that got in somehow). Refused calls are logged.
 */
export function registerIpc(context: IpcContext): { viewNow: () => SettingsView } {
  const { store, host, cipher, logger } = context;
  const viewNow = () => settingsViewOf(store.current, cipher, host.state, store.notice?.message, store.path);

  const trusted = (event: IpcMainEvent | IpcMainInvokeEvent): boolean => {
    const frame = event.senderFrame;
    const ok = event.sender === context.mainWindow()?.webContents && frame !== null && frame.parent === null && isAppUrl(frame.url);
    if (!ok) logger.warn("refused an IPC call from an unexpected sender", { url: frame?.url });
    return ok;
  };
  const handle = <A extends unknown[], T>(channel: string, run: (...args: A) => Promise<T> | T) =>
    ipcMain.handle(channel, async (event, ...args) => {
      if (!trusted(event)) throw new Error("refused");
      return run(...(args as A));
    });
  const result = async <T>(run: () => Promise<T>): Promise<BridgeResult<T>> => {
    try {
      return { ok: true, value: await run() };
    } catch (error) {
      return failure(error, logger);
    }
  };

  // The preload asks once, synchronously, so that the page has its base URL and token before its scripts run.
  ipcMain.on(IPC.connection, (event) => {
    event.returnValue = trusted(event) ? { baseUrl: host.baseUrl, token: host.sessionToken, platform: process.platform } : null;
  });
  handle(IPC.settingsGet, () => viewNow());
  handle(IPC.settingsUpdate, (patch: unknown) =>
    result(async () => {
      await store.update((settings) => applySettingsPatch(settings, patch));
      return viewNow();
    }),
  );
  handle(IPC.createApiKey, (options: unknown) =>
    result(async () => {
      const { label, requireSecret } = (typeof options === "object" && options !== null ? options : {}) as { label?: unknown; requireSecret?: unknown };
      return host.createApiKey({ ...(typeof label === "string" ? { label } : {}), requireSecret: requireSecret === true });
    }),
  );
  handle(IPC.revokeApiKey, (id: unknown) =>
    result(async () => {
      await host.revokeApiKey(String(id));
      return viewNow();
    }),
  );
  handle(IPC.copyApiKey, (id: unknown) =>
    result(async () => {
      const credentials = host.revealApiKey(String(id));
      if (!credentials) throw new SettingsPatchError("this key is encrypted by a key store this app cannot open: revoke it and create a new one");
      clipboard.writeText(credentials.secret === undefined ? credentials.key : `${credentials.key}:${credentials.secret}`);
      return true as const;
    }),
  );
  handle(IPC.useFreePort, () =>
    result(async () => {
      const port = await findFreePort();
      await store.update((settings) => ({ ...settings, port }));
      await host.restart();
      return viewNow();
    }),
  );
  handle(IPC.openExternal, (url: unknown) => openExternalChecked(String(url)));
  return { viewNow };
}
