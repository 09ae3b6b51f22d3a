import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Logger } from "../service/logger.ts";
import { parseSettings, type Settings, SettingsError } from "./settings.ts";

/** Reads a settings file the user named (`--config FILE`): anything wrong is an error that says what and where. */
export async function readSettingsFile(path: string): Promise<Settings> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new SettingsError(`cannot read settings file ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SettingsError(`settings file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseSettings(json, `settings file ${path}`);
}

/**
 * Reads the app's own settings file. A missing file means defaults. A corrupt or invalid one is kept beside
 * as `<name>.corrupt-<time>` and replaced by defaults, with a warning naming both: nothing crashes and nothing
 * the user wrote is silently lost.
 */
export async function readUserSettings(path: string, logger: Logger, now: () => Date = () => new Date()): Promise<Settings> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return parseSettings({});
    throw new SettingsError(`cannot read settings file ${path}: ${(error as Error).message}`);
  }
  try {
    return parseSettings(JSON.parse(text), `settings file ${path}`);
  } catch (error) {
    const backup = `${path}.corrupt-${now().toISOString().replace(/[:.]/g, "-")}`;
    await rename(path, backup);
    logger.warn(`settings were not valid, so defaults are used; the old file is kept as ${backup}`, {
      problem: (error as Error).message,
    });
    return parseSettings({});
  }
}

/** Writes settings atomically (a half-written file is never left) and readable by the user only (it holds keys). */
export async function writeUserSettings(path: string, settings: Settings): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}
