import { parseSettings, type Settings } from "./settings.ts";
import { loadUserSettings, type SettingsNotice, writeUserSettings } from "./settingsFile.ts";

type Listener = (settings: Settings, previous: Settings) => void;

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
  ) {
    this.#settings = loaded;
  }

  static async open(path: string, now: () => Date = () => new Date()): Promise<SettingsStore> {
    const { settings, notice } = await loadUserSettings(path, now);
    return new SettingsStore(path, settings, notice);
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
      await writeUserSettings(this.path, next);
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
