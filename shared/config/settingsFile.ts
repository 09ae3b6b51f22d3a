import { mkdir, open, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import type { Logger } from "../log/logger.ts";
import { parseSettings, type Settings, SettingsError, UnknownSettingsVersionError } from "./settings.ts";

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

/** What the user should be told about the settings file that was read; the desktop app shows it, serve logs it. */
export interface SettingsNotice {
  readonly kind: "corrupt" | "unknown-version";
  readonly message: string;
  /** Where the old file was kept. */
  readonly backupPath: string;
}

export interface LoadedSettings {
  readonly settings: Settings;
  readonly notice?: SettingsNotice;
}

/**
 * Reads the app's own settings file, migrating an older version. A missing file means defaults. A corrupt or
 * invalid one, or one written by a newer gasfees, is kept beside as `<name>.corrupt-<time>` and replaced by
 * defaults, with a notice naming both: nothing crashes and nothing the user wrote is silently lost.
 */
export async function loadUserSettings(path: string, now: () => Date = () => new Date()): Promise<LoadedSettings> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { settings: parseSettings({}) };
    throw new SettingsError(`cannot read settings file ${path}: ${(error as Error).message}`);
  }
  try {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new SettingsError(`settings file ${path} is not valid JSON: ${(error as Error).message}`);
    }
    return { settings: parseSettings(json, `settings file ${path}`) };
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    const backupPath = `${path}.corrupt-${now().toISOString().replace(/[:.]/g, "-")}`;
    await rename(path, backupPath);
    const kind = error instanceof UnknownSettingsVersionError ? "unknown-version" : "corrupt";
    const what = kind === "unknown-version" ? "were written by a newer version of gasfees" : "were not valid";
    return {
      settings: parseSettings({}),
      notice: { kind, backupPath, message: `The settings ${what}, so defaults are used; the old file is kept as ${backupPath}. (${error.message})` },
    };
  }
}

/** `loadUserSettings`, with the notice logged as a warning (the headless service). */
export async function readUserSettings(path: string, logger: Logger, now: () => Date = () => new Date()): Promise<Settings> {
  const { settings, notice } = await loadUserSettings(path, now);
  if (notice) {
    const what = notice.kind === "unknown-version" ? "were written by a newer version of gasfees" : "were not valid";
    logger.warn(`settings ${what}, so defaults are used; the old file is kept as ${notice.backupPath}`, { problem: notice.message });
  }
  return settings;
}

let temporaryCount = 0;

/** Writes settings atomically (a half-written file is never left) and readable by the user only (it holds keys). */
export async function writeUserSettings(path: string, settings: Settings): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${++temporaryCount}.tmp`;
  const file = await open(temporary, "w", 0o600);
  try {
    await file.writeFile(`${JSON.stringify(settings, null, 2)}\n`);
    // On disk before the rename, so that a power cut leaves the old file or the new one, never an empty one.
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
}
