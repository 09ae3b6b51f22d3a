// What the Electron preload exposes to the page (named values only, never ipcRenderer). Declared once here; the
// preload implements it. In a browser the bridge is absent and the page reads its token from the address instead.
export interface GasfeesDesktopBridge {
  /** The local API's base URL, such as `http://127.0.0.1:8950`, without a trailing slash. */
  readonly baseUrl: string;
  /** The user's API key or a session token of the service. */
  readonly token: string;
}

declare global {
  interface Window {
    readonly gasfeesDesktop?: GasfeesDesktopBridge;
  }
}
