// The desktop app's main process: the shared service (the same startService as `npm run serve`), one sandboxed window
// on the built renderer, the tray, notifications and the settings page's calls. No fee logic lives here.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { app, BrowserWindow, clipboard, dialog, nativeTheme, Notification, session } from "electron";
import { settingsPath, userConfigDir } from "../../shared/config/configDir.ts";
import { historyPath } from "../../shared/app/openHistoryStore.ts";
import type { Settings } from "../../shared/config/settings.ts";
import { SettingsStore } from "../../shared/config/settingsStore.ts";
import { createLogger, type LogLevel } from "../../shared/log/logger.ts";
import { BRIDGE_CALLS } from "../bridge/bridgeCalls.ts";
import type { AlertNotification } from "./alertNotification.ts";
import { registerAppScheme, serveRendererFiles } from "./appProtocol.ts";
import { registerIpc } from "./ipc.ts";
import { setStartAtLogin, startedAtLogin } from "./loginItem.ts";
import { safeStorageCipher } from "./safeStorageCipher.ts";
import { APP_ORIGIN } from "./security.ts";
import { findFreePort, ServiceHost } from "./serviceHost.ts";
import { logNotificationShown, trayChangeLogger } from "./shownToUser.ts";
import { createAppTray } from "./tray.ts";
import { trayCostOf } from "./trayCost.ts";
import { trayChainOf } from "./trayModel.ts";
import { createMainWindow, lockDownWebContents } from "./window.ts";

/** dist/electron/, where this bundle, the preload and the tray icons are. */
const HERE = fileURLToPath(new URL(".", import.meta.url));
const RENDERER_DIR = join(HERE, "..", "renderer");
const QUIT_DEADLINE_MS = 3000;
const TRAY_REFRESH_MS = 500;

const logger = createLogger((process.env.GASFEES_LOG_LEVEL as LogLevel | undefined) ?? "info");

// Tests and portable setups point GASFEES_CONFIG_DIR elsewhere: keep Chromium's data (and the single-instance lock) there too.
if (process.env.GASFEES_CONFIG_DIR) app.setPath("userData", join(process.env.GASFEES_CONFIG_DIR, "electron"));
registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  // Another gasfees runs: it shows its window (second-instance below) and this one leaves.
  app.quit();
} else {
  void app.whenReady().then(main, (error: unknown) => fatal(error));
}

function fatal(error: unknown): void {
  logger.error("gasfees could not start", { error: (error as Error).stack ?? String(error) });
  dialog.showErrorBox("gasfees could not start", (error as Error).message ?? String(error));
  app.exit(1);
}

async function main(): Promise<void> {
  let quitting = false;
  let window: BrowserWindow | undefined;
  let loadedBaseUrl: string | undefined;

  lockDownWebContents();
  // The page needs no permission at all (notifications come from the main process).
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  const cipher = safeStorageCipher();
  const store = await SettingsStore.open(settingsPath(userConfigDir()), { onWarning: (message) => logger.warn(message) });
  if (store.notice) logger.warn(store.notice.message);
  nativeTheme.themeSource = store.current.theme;

  // Every alert the service fires (user rules, and the built-in busy/calm pair unless notifications are off or the
  // chain is muted) as a notification.
  const showNotification = (notification: AlertNotification) => {
    logNotificationShown(logger, notification);
    if (!Notification.isSupported()) return logger.info("notifications are not supported on this system: the one above was logged only");
    const shown = new Notification({ title: notification.title, body: notification.body });
    // Since Electron 42 macOS shows notifications through UNNotification, which refuses an app that is not code-signed
    // (the installers are unsigned until an identity is configured): the log then says so instead of nothing.
    shown.on("failed", (_event, error) => logger.warn("the notification could not be shown", { ruleId: notification.event.ruleId, error }));
    shown.show();
  };
  const logTrayChange = trayChangeLogger(logger);

  let trayTimer: NodeJS.Timeout | undefined;
  const refresh = () => {
    if (trayTimer) return;
    trayTimer = setTimeout(() => {
      trayTimer = undefined;
      // Runs after `tray` below is made: the timer cannot fire before main() has run on to it.
      const publications = host.running?.service.list() ?? [];
      const networks = publications.map((publication) => publication.status);
      const shown = trayChainOf(networks, store.current.trayChainId);
      const cost = trayCostOf(
        publications.find((publication) => publication.chainId === shown?.chainId),
        store.current,
      );
      logTrayChange(tray.update(host.state, networks, store.current.trayChainId, host.paused, cost));
      if (!window || window.isDestroyed()) return;
      window.webContents.send(BRIDGE_CALLS.settings.onChange.channel, ipc.viewNow());
      // The page's base URL is fixed for its life: after a port change, load it again.
      if (host.state.state === "running" && loadedBaseUrl !== undefined && loadedBaseUrl !== host.state.url) {
        loadedBaseUrl = host.state.url;
        window.webContents.reload();
      }
    }, TRAY_REFRESH_MS);
  };

  const host = new ServiceHost({
    store,
    cipher,
    logger,
    extraCorsOrigins: [APP_ORIGIN],
    onAlert: showNotification,
    onChange: refresh,
    historyFile: historyPath(userConfigDir()),
  });
  const ipc = registerIpc({ store, host, cipher, logger, mainWindow: () => window });
  serveRendererFiles(RENDERER_DIR, () => host.baseUrl);

  store.subscribe((settings: Settings, previous: Settings) => {
    if (settings.theme !== previous.theme) nativeTheme.themeSource = settings.theme;
    if (settings.startAtLogin !== previous.startAtLogin) {
      setStartAtLogin(settings.startAtLogin).catch((error: unknown) => logger.warn("could not change start at login", { error: String(error) }));
    }
    refresh();
  });

  const showWindow = () => {
    if (!window || window.isDestroyed()) {
      window = createMainWindow({ preloadPath: join(HERE, "preload.cjs"), show: true, isQuitting: () => quitting });
      loadedBaseUrl = host.baseUrl;
      window.webContents.on("did-start-loading", () => (loadedBaseUrl = host.baseUrl));
    }
    window.show();
    window.focus();
  };

  app.on("second-instance", showWindow);
  app.on("activate", showWindow);
  // Closing the window keeps the app in the tray (menu bar); only Quit ends it.
  app.on("window-all-closed", () => {});

  let stopped = false;
  app.on("before-quit", (event) => {
    quitting = true;
    if (stopped) return;
    event.preventDefault();
    setTimeout(() => app.exit(0), QUIT_DEADLINE_MS).unref();
    void host.stop().finally(() => {
      stopped = true;
      tray.destroy();
      app.quit();
    });
  });

  const tray = createAppTray(join(HERE, "tray"), {
    openDashboard: showWindow,
    // clipboard.writeText answers with a promise since Electron 44: a failure is logged, not left unhandled.
    copyApiUrl: () => void clipboard.writeText(host.baseUrl).catch((error: unknown) => logger.warn("could not copy the API URL", { error: String(error) })),
    chooseChain: (chainId) => void store.update((settings) => ({ ...settings, trayChainId: chainId })),
    togglePause: () => void (host.paused ? host.start() : host.pause()),
    quit: () => app.quit(),
  });

  // The service first, so that the page finds the API where its base URL says.
  const state = await host.start();
  if (state.state === "running") logger.info(`gasfees listening on ${state.url}`);
  if (!startedAtLogin()) showWindow();
  if (state.state === "port-in-use") {
    const { response } = await dialog.showMessageBox({
      type: "warning",
      title: "gasfees",
      message: `Port ${state.port} is already in use`,
      detail: state.message,
      buttons: ["Use a free port", "Choose in Settings", "Quit"],
      defaultId: 0,
      cancelId: 1,
    });
    if (response === 0) {
      const port = await findFreePort();
      await store.update((settings) => ({ ...settings, port }));
    } else if (response === 1) showWindow();
    else app.quit();
  }
}
