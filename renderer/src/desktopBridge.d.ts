// What the Electron preload exposes to the page (named values only, never ipcRenderer). Declared once here; the
// preload implements it. In a browser the bridge is absent and the page reads its token from the address instead.
// The bridge itself (base URL, token, settings calls) is declared in electron/preload/bridge.ts, which the preload
// implements and the main process answers; this file only puts it on `window` for the page.
import type { GasfeesDesktopBridge } from "../../electron/preload/bridge.ts";

export type { GasfeesDesktopBridge };

declare global {
  interface Window {
    readonly gasfeesDesktop?: GasfeesDesktopBridge;
  }
}
