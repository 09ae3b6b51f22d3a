// The preload: runs sandboxed before the page and exposes the bridge (bridge.ts) through contextBridge. Named
// functions that send plain data only; the page never sees ipcRenderer or an IPC event.
import { contextBridge, ipcRenderer } from "electron";
import { type GasfeesDesktopBridge, IPC, type SettingsView } from "./bridge.ts";

interface ConnectionReply {
  readonly baseUrl: string;
  readonly token: string;
  readonly platform: string;
}

// Synchronous once, at load, so that the page's data client has its base URL and token before its first call.
const connection = ipcRenderer.sendSync(IPC.connection) as ConnectionReply | null;

if (connection !== null) {
  const platform = (["darwin", "win32", "linux"] as const).find((name) => name === connection.platform) ?? "other";
  const bridge: GasfeesDesktopBridge = {
    baseUrl: connection.baseUrl,
    token: connection.token,
    platform,
    settings: {
      get: () => ipcRenderer.invoke(IPC.settingsGet),
      update: (patch) => ipcRenderer.invoke(IPC.settingsUpdate, patch),
      createApiKey: (options) => ipcRenderer.invoke(IPC.createApiKey, { label: options.label, requireSecret: options.requireSecret }),
      revokeApiKey: (id) => ipcRenderer.invoke(IPC.revokeApiKey, String(id)),
      copyApiKey: (id) => ipcRenderer.invoke(IPC.copyApiKey, String(id)),
      useFreePort: () => ipcRenderer.invoke(IPC.useFreePort),
      onChange(listener) {
        const forward = (_event: unknown, view: SettingsView) => listener(view);
        ipcRenderer.on(IPC.changed, forward);
        return () => ipcRenderer.off(IPC.changed, forward);
      },
    },
    openExternal: (url) => ipcRenderer.invoke(IPC.openExternal, String(url)),
  };
  contextBridge.exposeInMainWorld("gasfeesDesktop", bridge);
}
