// What the Electron preload exposes to the page (named functions and values only, never ipcRenderer). The bridge is
// declared once, in electron/bridge/bridgeCalls.ts: the preload builds these functions from that list and the main
// process answers them; this file only puts it on `window` for the page. In a browser the bridge is absent and the
// page reads its token from the address instead.
import type { GasfeesDesktopBridge } from "../../electron/bridge/bridgeCalls.ts";

export type { GasfeesDesktopBridge };

declare global {
  interface Window {
    readonly gasfeesDesktop?: GasfeesDesktopBridge;
  }
}
