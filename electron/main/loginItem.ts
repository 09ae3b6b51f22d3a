import { mkdir, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { app } from "electron";

/** Given to the app when it starts at login: open in the tray, without a window. */
export const HIDDEN_ARG = "--hidden";

/** The freedesktop autostart entry for Linux, where Electron's login item settings do nothing. */
export function linuxAutostartEntry(execPath: string): string {
  const quoted = /[\s"'\\$`]/.test(execPath) ? `"${execPath.replace(/(["\\$`])/g, "\\$1")}"` : execPath;
  return ["[Desktop Entry]", "Type=Application", "Name=gasfees", `Exec=${quoted} ${HIDDEN_ARG}`, "X-GNOME-Autostart-enabled=true", ""].join("\n");
}

/** Turns start-at-login on or off for the packaged app (a development run is never registered). */
export async function setStartAtLogin(enabled: boolean): Promise<void> {
  if (!app.isPackaged) return;
  if (process.platform === "linux") {
    const dir = join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "autostart");
    const file = join(dir, "gasfees.desktop");
    if (!enabled) return rm(file, { force: true });
    await mkdir(dir, { recursive: true });
    // An AppImage runs from a temporary mount: start the AppImage file itself.
    await writeFile(file, linuxAutostartEntry(process.env.APPIMAGE ?? process.execPath));
    return;
  }
  app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_ARG] });
}

/** Whether this run was started at login (so it opens in the tray only). */
export function startedAtLogin(): boolean {
  return process.argv.includes(HIDDEN_ARG) || (process.platform === "darwin" && app.getLoginItemSettings().wasOpenedAtLogin);
}
