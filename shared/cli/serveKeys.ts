import type { ApiKeySettings, Settings } from "../config/settings.ts";
import { readUserSettings, writeUserSettings } from "../config/settingsFile.ts";
import { maskApiKey } from "../core/text/maskApiKey.ts";
import { withDashboardToken } from "../config/dashboardToken.ts";
import { generateApiKey } from "../keys/generateApiKey.ts";
import type { Logger } from "../log/logger.ts";

/**
 * The keys the headless service accepts: those given with --api-key if any (for this run only), else those
 * in the settings (`settingsFile`, the file they were read from); with none at all, one is generated, stored in the
 * user's settings file, and shown once. A key is only ever logged masked, with the file that holds it in full.
 */
export async function resolveServeKeys(
  commandLineKeys: readonly ApiKeySettings[],
  settings: Settings,
  settingsFile: string,
  userSettingsPath: string,
  logger: Logger,
): Promise<ApiKeySettings[]> {
  if (commandLineKeys.length > 0) return [...commandLineKeys];
  if (settings.sealedApiKeys.length > 0) {
    logger.info(
      `${settings.sealedApiKeys.length} API key(s) in the settings were made by the desktop app and are encrypted with the system key store: only the desktop app can use them`,
    );
  }
  if (settings.apiKeys.length > 0) {
    logStoredKeys(logger, settings.apiKeys, settingsFile);
    return settings.apiKeys;
  }
  const userSettings = await readUserSettings(userSettingsPath, logger);
  if (userSettings.apiKeys.length > 0) {
    logStoredKeys(logger, userSettings.apiKeys, userSettingsPath);
    return userSettings.apiKeys;
  }
  const created: ApiKeySettings = { key: generateApiKey(), label: "created by gasfees serve", createdAt: new Date().toISOString() };
  await writeUserSettings(userSettingsPath, { ...userSettings, apiKeys: [created] });
  logger.info(`created an API key and stored it in ${userSettingsPath}: ${created.key}  (use it as: curl -u ${created.key}: <url>)`);
  return [created];
}

function logStoredKeys(logger: Logger, keys: readonly ApiKeySettings[], file: string): void {
  const masked = keys.map((apiKey) => maskApiKey(apiKey.key)).join(", ");
  logger.info(`API key${keys.length === 1 ? "" : "s"} from ${file}: ${masked} (the full key${keys.length === 1 ? " is" : "s are"} there, under "apiKeys")`);
}

/**
 * The dashboard's token, kept in the user's settings file so that the dashboard's address stays valid across
 * restarts: read from there, or made and stored there on the first run.
 */
export async function resolveDashboardToken(userSettingsPath: string, logger: Logger): Promise<string> {
  const userSettings = await readUserSettings(userSettingsPath, logger);
  if (userSettings.dashboardToken !== undefined) return userSettings.dashboardToken;
  const updated = withDashboardToken(userSettings);
  await writeUserSettings(userSettingsPath, updated);
  return updated.dashboardToken!;
}
