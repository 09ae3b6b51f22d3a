import {
  HistoryStoreCorruptError,
  HistoryStoreError,
  HistoryStoreInputError,
  HistoryStoreReadOnlyError,
  HistoryStoreUnavailableError,
} from "./historyStoreErrors.ts";
import { ChunkFormatError } from "./storeChunkCodec.ts";

/** SQLite's primary result codes that the store tells apart (https://sqlite.org/rescode.html). */
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_NOTADB = 26;

/**
 * The HistoryStoreError for what SQLite (or the record decoder) threw while the store tried to `action` `file`.
 * Anything else (a bug in the store) is returned unchanged, to surface as itself.
 */
export function storeErrorFrom(file: string, action: string, error: unknown): unknown {
  if (error instanceof HistoryStoreError) return error;
  if (error instanceof ChunkFormatError) return new HistoryStoreCorruptError(file, error.message, { cause: error });
  const code = sqliteCodeOf(error);
  if (code === undefined) return error;
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return new HistoryStoreCorruptError(file, message, { cause: error });
    case SQLITE_READONLY:
      return new HistoryStoreReadOnlyError(file, message, { cause: error });
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return new HistoryStoreUnavailableError(file, action, `another process kept it locked for longer than the busy timeout (${message})`, {
        cause: error,
        advice:
          "Another gasfees (the desktop app or npm run serve) is writing to the same file; nothing of this call was written, and the next call may succeed.",
      });
    default:
      return new HistoryStoreUnavailableError(file, action, message, { cause: error });
  }
}

/** Why the store could not do what it was asked, as /networks says it (wire/networkStatus.ts, storeHealthSchema). */
export type StoreProblem = "locked" | "full" | "unwritable" | "damaged";

/**
 * What kind of problem a failed store call had: undefined for a call the store refused (HistoryStoreInputError: the
 * caller's data, not the file, is at fault; retrying it would fail again).
 */
export function storeProblemOf(error: unknown): StoreProblem | undefined {
  if (error instanceof HistoryStoreInputError) return undefined;
  if (error instanceof HistoryStoreCorruptError) return "damaged";
  const code = sqliteCodeOf(error instanceof HistoryStoreError ? error.cause : error);
  if (code === SQLITE_BUSY || code === SQLITE_LOCKED) return "locked";
  if (code === SQLITE_FULL) return "full";
  if (code === SQLITE_CORRUPT || code === SQLITE_NOTADB) return "damaged";
  return "unwritable";
}

/** SQLite's primary result code of an error node:sqlite threw, or undefined for any other error. */
function sqliteCodeOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // node:sqlite gives the extended code (SQLITE_BUSY_SNAPSHOT is 517): its low byte is the primary one.
  return code === "ERR_SQLITE_ERROR" && typeof errcode === "number" ? errcode & 0xff : undefined;
}
