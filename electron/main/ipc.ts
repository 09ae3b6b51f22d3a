import { type BrowserWindow, clipboard, type IpcMainEvent, type IpcMainInvokeEvent, ipcMain } from "electron";
import { SettingsError } from "../../shared/config/settings.ts";
import type { SettingsStore } from "../../shared/config/settingsStore.ts";
import { ApiKeyNotFoundError } from "../../shared/config/storedApiKeys.ts";
import type { SecretCipher } from "../../shared/keys/secretCipher.ts";
import type { Logger } from "../../shared/log/logger.ts";
import { BRIDGE_CALLS, type BridgeImplementation, CONNECTION_CHANNEL, type ConnectionReply } from "../bridge/bridgeCalls.ts";
import type { BridgeResult, SettingsView } from "../bridge/bridgeTypes.ts";
import { bridgeHandlers } from "./bridgeHandlers.ts";
import { findFreePort, type ServiceHost } from "./serviceHost.ts";
import { applySettingsPatch, SettingsPatchError, settingsViewOf } from "./settingsView.ts";
import { untrustedSenderReason } from "./trustedSender.ts";
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
 * The main process's side of the bridge: a handler for each call of BRIDGE_CALLS (bridgeHandlers.ts refuses a
 * sender other than the main window's top frame on the app's origin, and arguments that fail the call's schema),
 * and the preload's synchronous question for the base URL and token. Refused calls are logged.
 */
export function registerIpc(context: IpcContext): { viewNow: () => SettingsView } {
  const { store, host, cipher, logger } = context;
  const viewNow = () => settingsViewOf(store.current, cipher, host.state, store.notice?.message, store.path);
  const result = async <T>(run: () => Promise<T>): Promise<BridgeResult<T>> => {
    try {
      return { ok: true, value: await run() };
    } catch (error) {
      return failure(error, logger);
    }
  };
  const senderRefusal = (event: IpcMainEvent | IpcMainInvokeEvent) => untrustedSenderReason(event, context.mainWindow()?.webContents);

  const implementation: BridgeImplementation = {
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
        result(() => {
          const credentials = host.revealApiKey(id);
          if (!credentials) throw new SettingsPatchError("this key is encrypted by a key store this app cannot open: revoke it and create a new one");
          clipboard.writeText(credentials.secret === undefined ? credentials.key : `${credentials.key}:${credentials.secret}`);
          return Promise.resolve(true as const);
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
          setImmediate(() => context.mainWindow()?.webContents.reload());
          return true as const;
        }),
    },
    openExternal: (url) => openExternalChecked(url),
  };

  const handlers = bridgeHandlers(BRIDGE_CALLS, implementation, {
    untrustedSenderReason: senderRefusal,
    onRefused: (channel, reason, event) => logger.warn(`refused a ${channel} call: ${reason}`, { from: event.senderFrame?.url }),
  });
  for (const handler of handlers) ipcMain.handle(handler.channel, (event, ...args: unknown[]) => handler.handle(event, args));

  ipcMain.on(CONNECTION_CHANNEL, (event: IpcMainEvent) => {
    const refusal = senderRefusal(event);
    const token = host.dashboardToken;
    if (refusal !== undefined) logger.warn(`refused a ${CONNECTION_CHANNEL} call: ${refusal}`, { from: event.senderFrame?.url });
    const reply: ConnectionReply =
      refusal === undefined && token !== undefined ? { baseUrl: host.baseUrl, token, platform: platformName(process.platform) } : null;
    event.returnValue = reply;
  });
  return { viewNow };
}

function platformName(platform: NodeJS.Platform): "darwin" | "win32" | "linux" | "other" {
  return platform === "darwin" || platform === "win32" || platform === "linux" ? platform : "other";
}
