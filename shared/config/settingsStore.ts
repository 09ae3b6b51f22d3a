import { parseSettings, type Settings } from "./settings.ts";
import { loadUserSettings, type SettingsNotice, writeUserSettings } from "./settingsFile.ts";

type Listener = (settings: Settings, previous: Settings) => void;

export interface SettingsStoreOptions {
  /** The clock for the name of a corrupt file's backup. */
  readonly now?: () => Date;
  /** Told each time the file or its folder had to be made private again (the desktop app logs it). */
  readonly onWarning?: (message: string) => void;
}

/**
 * The settings file as the desktop app holds it: read (and migrated, or replaced by defaults with a notice) once,
 * then changed only through `update`, which validates the whole result with the schema and writes it atomically
 * before anyone sees it. Updates run one after another, so two quick changes never overwrite each other.
 */
export class SettingsStore {
  #settings: Settings;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #listeners = new Set<Listener>();

  private constructor(
    readonly path: string,
    loaded: Settings,
    /** Set when the file was corrupt or unknown: what happened and where the old file is. */
    readonly notice: SettingsNotice | undefined,
    private readonly onWarning: (message: string) => void,
  ) {
    this.#settings = loaded;
  }

  /** Reads the file once (making it and its folder private to the user, with a warning for each fix). */
  static async open(path: string, options: SettingsStoreOptions = {}): Promise<SettingsStore> {
    const onWarning = options.onWarning ?? (() => {});
    const { settings, notice, warnings } = await loadUserSettings(path, options.now);
    for (const warning of warnings) onWarning(warning);
    return new SettingsStore(path, settings, notice, onWarning);
  }

  get current(): Settings {
    return this.#settings;
  }

  /**
   * Applies `change` to the current settings and stores the result. `change` returns the new settings (plain data;
   * validated here, so a bad value is refused with a SettingsError naming it and nothing is written).
   */
  update(change: (current: Settings) => unknown): Promise<Settings> {
    const run = this.#queue.then(async () => {
      const previous = this.#settings;
      const next = parseSettings(change(previous));
      for (const warning of await writeUserSettings(this.path, next)) this.onWarning(warning);
      this.#settings = next;
      for (const listener of this.#listeners) listener(next, previous);
      return next;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
