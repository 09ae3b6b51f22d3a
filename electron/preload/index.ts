// The preload: runs sandboxed before the page and exposes the bridge through contextBridge, built from the channel
// list of its one declaration (electron/bridge/bridgeCalls.ts). Named functions that send plain data only: the page
// never sees ipcRenderer or an IPC event.
import { contextBridge, ipcRenderer } from "electron";
import type { BridgeCalls, ConnectionReply, GasfeesDesktopBridge } from "../bridge/bridgeCalls.ts";
import { BRIDGE_CHANNELS } from "../bridge/bridgeChannels.ts";
import { CONNECTION_CHANNEL } from "../bridge/connectionChannel.ts";
import { buildBridgeApi } from "./buildBridgeApi.ts";

// Synchronous once, at load, so that the page's data client has its base URL and token before its first call.
const connection = ipcRenderer.sendSync(CONNECTION_CHANNEL) as ConnectionReply;

if (connection !== null) {
  const calls = buildBridgeApi<BridgeCalls>(BRIDGE_CHANNELS, {
    invoke: (channel, args) => ipcRenderer.invoke(channel, ...args),
    subscribe(channel, listener) {
      const forward = (_event: unknown, payload: unknown) => listener(payload);
      ipcRenderer.on(channel, forward);
      return () => ipcRenderer.off(channel, forward);
    },
  });
  const bridge: GasfeesDesktopBridge = { baseUrl: connection.baseUrl, token: connection.token, platform: connection.platform, ...calls };
  contextBridge.exposeInMainWorld("gasfeesDesktop", bridge);
}
