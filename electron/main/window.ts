import { app, BrowserWindow, type WebContents, shell } from "electron";
import { APP_ENTRY_URL, isAppUrl, isSafeExternalUrl } from "./security.ts";

/** Opens a link in the user's browser only when it passes the check; says whether it did. */
export async function openExternalChecked(url: string): Promise<boolean> {
  if (!isSafeExternalUrl(url)) return false;
  await shell.openExternal(url);
  return true;
}

/**
 * Every web contents the app makes stays on the app's pages: navigation elsewhere is refused, new windows are denied
 * (a checked https link opens in the browser instead), and no <webview> may be attached. Call once at startup.
 */
export function lockDownWebContents(): void {
  app.on("web-contents-created", (_event, contents: WebContents) => {
    contents.on("will-navigate", (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on("will-redirect", (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on("will-attach-webview", (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      void openExternalChecked(url);
      return { action: "deny" };
    });
  });
}

export interface MainWindowOptions {
  readonly preloadPath: string;
  readonly show: boolean;
  /** Closing hides the window (the app stays in the tray) unless the app is quitting. */
  readonly isQuitting: () => boolean;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1180,
    height: 800,
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: "gasfees",
    autoHideMenuBar: true,
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: !app.isPackaged,
    },
  });
  window.on("close", (event) => {
    if (options.isQuitting()) return;
    event.preventDefault();
    window.hide();
  });
  if (options.show) window.once("ready-to-show", () => window.show());
  void window.loadURL(APP_ENTRY_URL);
  return window;
}
