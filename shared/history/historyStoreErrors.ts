/**
 * Errors of the history store. Every one names the database file and says what to do next; the service catches
 * HistoryStoreError (the base of them all), logs it and runs on without persistence, never crashing on its store.
 */

/** Anything the history store refuses or cannot do. `file` is the database file it concerns. */
export class HistoryStoreError extends Error {
  override name = "HistoryStoreError";
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The file is damaged, or is not an SQLite database at all. */
export class HistoryStoreCorruptError extends HistoryStoreError {
  override name = "HistoryStoreCorruptError";
  constructor(file: string, detail: string, options?: { cause?: unknown }) {
    super(
      file,
      `The history database ${file} is damaged (${detail}). gasfees runs on without stored history; move the file aside (or delete it) and restart to start a new history.`,
      options,
    );
  }
}

/** The file was written by a newer gasfees, whose schema this one cannot read. */
export class HistoryStoreNewerSchemaError extends HistoryStoreError {
  override name = "HistoryStoreNewerSchemaError";
  constructor(
    file: string,
    readonly fileSchemaVersion: number,
    readonly supportedSchemaVersion: number,
  ) {
    super(
      file,
      `The history database ${file} was made by a newer gasfees (schema ${fileSchemaVersion}; this one reads schema ${supportedSchemaVersion}). gasfees runs on without stored history; update gasfees, or move the file aside to start a new history.`,
    );
  }
}

/** The file is an SQLite database, but not one gasfees made (another application id, or tables gasfees does not know). */
export class HistoryStoreForeignFileError extends HistoryStoreError {
  override name = "HistoryStoreForeignFileError";
  constructor(file: string, detail: string) {
    super(
      file,
      `${file} is an SQLite database but not a gasfees history (${detail}). gasfees leaves it alone and runs on without stored history; move it elsewhere if it is yours, or delete it, and restart.`,
    );
  }
}

/** The file cannot be used now: no permission, no space, a missing folder, or another process holding it too long. */
export class HistoryStoreUnavailableError extends HistoryStoreError {
  override name = "HistoryStoreUnavailableError";
  constructor(file: string, action: string, detail: string, options?: { cause?: unknown; advice?: string }) {
    super(
      file,
      `Could not ${action} the history database ${file}: ${detail}. ${options?.advice ?? "Check that its folder exists and is writable, and that the disk has free space."}`,
      options,
    );
  }
}

/**
 * The file, or the -wal and -shm files SQLite keeps beside it, may be read but not written (its mode, its owner, or a
 * read-only file system): nothing was written, and the service runs on without stored history.
 */
export class HistoryStoreReadOnlyError extends HistoryStoreError {
  override name = "HistoryStoreReadOnlyError";
  constructor(file: string, detail: string, options?: { cause?: unknown }) {
    super(
      file,
      `The history database ${file} is read-only (${detail}). gasfees runs on without stored history; make it writable for this user (and its -wal and -shm files, and its folder), or move it aside to start a new history, and restart.`,
      options,
    );
  }
}

/** A caller passed something the store does not hold (a programming error in the caller, or data beyond its bounds). */
export class HistoryStoreInputError extends HistoryStoreError {
  override name = "HistoryStoreInputError";
  constructor(file: string, problem: string) {
    super(file, `The history store refused a call: ${problem}. Nothing was written.`);
  }
}
