/** Logs go to stderr as one line each, so that stdout carries only what scripts read (the listening line). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "silent"];

export function createLogger(level: LogLevel = "info", write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const threshold = LEVELS.indexOf(level);
  const log = (at: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (LEVELS.indexOf(at) < threshold) return;
    const details = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields, jsonSafe)}` : "";
    write(`${new Date().toISOString()} ${at.padEnd(5)} ${message}${details}\n`);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

export const silentLogger: Logger = createLogger("silent");

function jsonSafe(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
