import { randomUUID } from "node:crypto";
import { chmod, mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
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
  /** One sentence per file or folder whose mode had to be fixed (or could not be), for the log. */
  readonly warnings: readonly string[];
}

/** The settings hold API keys: the file is readable by its user only, and so is its folder. */
const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_FOLDER_MODE = 0o700;
/** Group and other permission bits: any of them set means someone else may read (or list) it. */
const OPEN_TO_OTHERS = 0o077;
const STICKY = 0o1000;

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, "0");

/**
 * Makes the settings file (when it exists) and its folder private to the user, and says so for each one it had to
 * fix. A folder that is shared on purpose (sticky, like /tmp) or owned by someone else is left as it is, with a
 * warning. Windows has no such modes (its folders are per user), so nothing is done there.
 */
async function keepPrivate(path: string): Promise<string[]> {
  if (process.platform === "win32") return [];
  const warnings: string[] = [];
  const folder = dirname(path);
  const folderStat = await stat(folder).catch(() => undefined);
  if (folderStat && (folderStat.mode & OPEN_TO_OTHERS) !== 0) {
    const ownedByUs = process.getuid === undefined || folderStat.uid === process.getuid();
    if ((folderStat.mode & STICKY) !== 0 || !ownedByUs) {
      warnings.push(
        `the settings folder ${folder} is shared with other users (mode ${octal(folderStat.mode)}), so gasfees leaves its mode alone; ` +
          "settings.json itself is readable by you only, but keep gasfees' settings in a folder of your own (set GASFEES_CONFIG_DIR)",
      );
    } else {
      warnings.push(await tighten(folder, folderStat.mode, PRIVATE_FOLDER_MODE, "folder", "was open to other users"));
    }
  }
  const fileStat = await stat(path).catch(() => undefined);
  if (fileStat && (fileStat.mode & OPEN_TO_OTHERS) !== 0) {
    warnings.push(await tighten(path, fileStat.mode, PRIVATE_FILE_MODE, "file", "was readable by other users"));
  }
  return warnings;
}

async function tighten(path: string, mode: number, privateMode: number, what: "file" | "folder", problem: string): Promise<string> {
  const subject = what === "folder" ? `the settings folder ${path}` : path;
  try {
    await chmod(path, privateMode);
    return `${subject} ${problem} (mode ${octal(mode)}) and it holds API keys, so gasfees made it private: now ${octal(privateMode)}`;
  } catch (error) {
    return `${subject} ${problem} (mode ${octal(mode)}) and gasfees could not change that (${(error as Error).message}): run chmod ${octal(privateMode).slice(1)} on it`;
  }
}

/**
 * Reads the app's own settings file, migrating an older version. A missing file means defaults. A corrupt or
 * invalid one, or one written by a newer gasfees, is kept beside as `<name>.corrupt-<time>` and replaced by
 * defaults, with a notice naming both: nothing crashes and nothing the user wrote is silently lost.
 */
export async function loadUserSettings(path: string, now: () => Date = () => new Date()): Promise<LoadedSettings> {
  // Before anything is read or kept as a backup, so that neither the file nor its backup stays open to others.
  const warnings = await keepPrivate(path);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { settings: parseSettings({}), warnings };
    throw new SettingsError(`cannot read settings file ${path}: ${(error as Error).message}`);
  }
  try {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new SettingsError(`settings file ${path} is not valid JSON: ${(error as Error).message}`);
    }
    return { settings: parseSettings(json, `settings file ${path}`), warnings };
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    const backupPath = `${path}.corrupt-${now().toISOString().replace(/[:.]/g, "-")}`;
    await rename(path, backupPath);
    // The backup may hold keys too: private whatever mode the file had (keepPrivate above may have been refused).
    await chmod(backupPath, PRIVATE_FILE_MODE).catch(() => undefined);
    const kind = error instanceof UnknownSettingsVersionError ? "unknown-version" : "corrupt";
    const what = kind === "unknown-version" ? "were written by a newer version of gasfees" : "were not valid";
    return {
      settings: parseSettings({}),
      notice: { kind, backupPath, message: `The settings ${what}, so defaults are used; the old file is kept as ${backupPath}. (${error.message})` },
      warnings,
    };
  }
}

/** `loadUserSettings`, with the notice and any fixed file mode logged as warnings (the headless service). */
export async function readUserSettings(path: string, logger: Logger, now: () => Date = () => new Date()): Promise<Settings> {
  const { settings, notice, warnings } = await loadUserSettings(path, now);
  for (const warning of warnings) logger.warn(warning);
  if (notice) {
    const what = notice.kind === "unknown-version" ? "were written by a newer version of gasfees" : "were not valid";
    logger.warn(`settings ${what}, so defaults are used; the old file is kept as ${notice.backupPath}`, { problem: notice.message });
  }
  return settings;
}

/**
 * Writes settings atomically (a half-written file is never left) and readable by the user only (it holds keys), in
 * a folder private to the user. Returns a warning for each mode it had to fix (see keepPrivate).
 */
export async function writeUserSettings(path: string, settings: Settings): Promise<string[]> {
  await mkdir(dirname(path), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  // A new name each time, created exclusively: an old file left by a crash is never reused with its mode.
  const temporary = `${path}.${randomUUID()}.tmp`;
  const file = await open(temporary, "wx", PRIVATE_FILE_MODE);
  try {
    // The umask may have taken bits away; the mode is set whatever it is.
    await file.chmod(PRIVATE_FILE_MODE);
    await file.writeFile(`${JSON.stringify(settings, null, 2)}\n`);
    // On disk before the rename, so that a power cut leaves the old file or the new one, never an empty one.
    await file.sync();
  } catch (error) {
    await file.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await file.close();
  await rename(temporary, path);
  return keepPrivate(path);
}
