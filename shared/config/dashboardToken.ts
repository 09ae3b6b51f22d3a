import { generateApiKey } from "../keys/generateApiKey.ts";
import type { Settings } from "./settings.ts";

/** The settings with a dashboard token: theirs, or a new one when they hold none (the caller stores them). */
export function withDashboardToken(settings: Settings): Settings {
  return settings.dashboardToken === undefined ? { ...settings, dashboardToken: generateApiKey() } : settings;
}

/** The settings with a new dashboard token, so that every address holding the old one stops working. */
export function withRotatedDashboardToken(settings: Settings): Settings {
  return { ...settings, dashboardToken: generateApiKey() };
}
