// electron-builder's configuration as electron-builder itself reads and validates it (its own loader and its own
// JSON schema, from app-builder-lib, which electron-builder installs), so that a check here sees what a build would.
import { Writable } from "node:stream";
import { DebugLogger, log } from "builder-util";
import type { Configuration } from "app-builder-lib";
import { getConfig, validateConfiguration } from "app-builder-lib/out/util/config/config.js";

/**
 * What electron-builder logs, kept in memory instead of written to stdout, where node's test runner reads its own
 * reports from the test process (interleaved there, electron-builder's lines broke the runner's framing). The lines
 * are returned for a failing check to quote.
 */
export function keepElectronBuilderLog(): { lines(): string } {
  let text = "";
  const memory = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  // The logger's stream is fixed at process.stdout and not part of its typed interface: defined over, for this process.
  Object.defineProperty(log, "stream", { value: memory });
  return { lines: () => text };
}

/** electron-builder.yml as `electron-builder` loads it from the project at `projectDir`. */
export function loadBuilderConfig(projectDir = "."): Promise<Configuration> {
  return getConfig(projectDir, null, null);
}

/** Resolves when electron-builder's schema accepts the configuration; rejects with electron-builder's own message. */
export function validateBuilderConfig(config: Configuration): Promise<void> {
  return validateConfiguration(config, new DebugLogger(false));
}

/** The `files` globs of the app's own folder, as electron-builder normalises them (a list, or `{ filter }` sets). */
export function appFileGlobs(config: Configuration): string[] {
  const files = config.files == null ? [] : Array.isArray(config.files) ? config.files : [config.files];
  return files.flatMap((entry) => {
    if (typeof entry === "string") return [entry];
    if (entry.from !== undefined && entry.from !== "." && entry.from !== "") return [];
    return entry.filter == null ? [] : Array.isArray(entry.filter) ? entry.filter : [entry.filter];
  });
}
