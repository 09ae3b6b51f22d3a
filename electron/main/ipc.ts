import { type BrowserWindow, clipboard, type IpcMainEvent, type IpcMainInvokeEvent, ipcMain } from "electron";
import type { SettingsStore } from "../../shared/config/settingsStore.ts";
import type { SecretCipher } from "../../shared/keys/secretCipher.ts";
import type { Logger } from "../../shared/log/logger.ts";
import { BRIDGE_CALLS, CONNECTION_CHANNEL, type ConnectionReply } from "../bridge/bridgeCalls.ts";
import type { SettingsView } from "../bridge/bridgeTypes.ts";
import { bridgeHandlers } from "./bridgeHandlers.ts";
import type { ServiceHost } from "./serviceHost.ts";
import { settingsCalls } from "./settingsCalls.ts";
import { settingsViewOf } from "./settingsView.ts";
import { untrustedSenderReason } from "./trustedSender.ts";
import { openExternalChecked } from "./window.ts";

export interface IpcContext {
  readonly store: SettingsStore;
  readonly host: ServiceHost;
  readonly cipher: SecretCipher;
  readonly logger: Logger;
  readonly mainWindow: () => BrowserWindow | undefined;
}

/**
 * The main process's side of the bridge: a handler for each call of BRIDGE_CALLS (bridgeHandlers.ts refuses a
 * sender other than the main window's top frame on the app's origin, and arguments that fail the call's schema),
 * and the preload's synchronous question for the base URL and token. Refused calls are logged.
 */
export function registerIpc(context: IpcContext): { viewNow: () => SettingsView } {
  const { store, host, cipher, logger } = context;
  const viewNow = () => settingsViewOf(store.current, cipher, host.state, store.notice?.message, store.path);
  const senderRefusal = (event: IpcMainEvent | IpcMainInvokeEvent) => untrustedSenderReason(event, context.mainWindow()?.webContents);
  const implementation = settingsCalls({
    store,
    host,
    logger,
    viewNow,
    writeClipboard: (text) => clipboard.writeText(text),
    reloadWindow: () => context.mainWindow()?.webContents.reload(),
    openExternal: (url) => openExternalChecked(url),
  });

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
