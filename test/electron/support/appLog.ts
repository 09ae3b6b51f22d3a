// The desktop app's log as the Electron tests read it: the main process writes one line per notification and per
// tray change (electron/main/shownToUser.ts) to stderr, and the tests read that stream (Playwright's
// electronApp.process()); no test-only code ships in the app.
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

export interface AppLog {
  /** Every complete line read so far. */
  lines(): readonly string[];
  /** The fields of each line logged with `message` (at any level), oldest first. */
  events(message: string): Array<Record<string, unknown>>;
}

/** Collects the lines of a stream from now on (next to any other reader of it, such as Playwright's own). */
export function followAppLog(stderr: Readable): AppLog {
  const lines: string[] = [];
  const decoder = new StringDecoder("utf8");
  let partial = "";
  stderr.on("data", (chunk: Buffer) => {
    const parts = (partial + decoder.write(chunk)).split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts);
  });
  return { lines: () => lines, events: (message) => loggedEvents(lines, message) };
}

/** Lines as the app's logger writes them: `<time> <level> <message> <fields as JSON>`. */
export function loggedEvents(lines: readonly string[], message: string): Array<Record<string, unknown>> {
  const prefix = ` ${message} {`;
  return lines.flatMap((line) => {
    const at = line.indexOf(prefix);
    if (at < 0 || !/^\S+ (debug|info|warn|error)\s*$/.test(line.slice(0, at))) return [];
    try {
      return [JSON.parse(line.slice(at + prefix.length - 1)) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}
