import { homedir } from "node:os";
import { join } from "node:path";

export const APP_NAME = "gasfees";

/**
 * The user's settings folder: the same one Electron's `app.getPath("userData")` gives the desktop app,
 * so that the headless service and the app read the same settings and keys.
 * `GASFEES_CONFIG_DIR` overrides it (tests, portable setups).
 */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.GASFEES_CONFIG_DIR) return env.GASFEES_CONFIG_DIR;
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  if (platform === "win32") return join(env.APPDATA ?? join(home, "AppData", "Roaming"), APP_NAME);
  if (platform === "darwin") return join(home, "Library", "Application Support", APP_NAME);
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), APP_NAME);
}

export function settingsPath(configDir: string): string {
  return join(configDir, "settings.json");
}
