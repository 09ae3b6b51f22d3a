import type { DatabaseSync } from "node:sqlite";
import { HistoryStoreCorruptError, HistoryStoreForeignFileError, HistoryStoreNewerSchemaError } from "./historyStoreErrors.ts";

/**
 * The history database's layout, version 1 (`PRAGMA user_version`), marked as gasfees's by `PRAGMA application_id`:
 *
 *   chains             (chain_id INTEGER PRIMARY KEY)  the chains that have tables
 *   chunks_<chainId>   (chunk INTEGER PRIMARY KEY, held INTEGER, record INTEGER): per 64-block chunk, which blocks
 *                      it holds (a 64-bit mask) and where its record is; small, so held ranges are read from it alone
 *   records_<chainId>  (record INTEGER PRIMARY KEY, data BLOB): the chunks' packed fields (storeChunkCodec.ts)
 *   alert_firings      each alert rule's last firing, so that its cooldown outlives a restart (alertFiringStore.ts;
 *                      made on every open, so an older file gets it without a new version)
 *   hours_<chainId>    the chain's hourly summaries, one row per hour (hourlySummaryStore.ts; made by the chain's
 *                      first write of them, so an older file gets it without a new version)
 *
 * Records are keyed by an id that only grows, not by block: SQLite's B-trees fill pages well only when keys arrive in
 * ascending order, and a backfill writes newest first, while the live head writes oldest first. Keyed by id, both
 * append (pages ~full); keyed by block, a backfill's pages were half empty (measured: 28-42 against 24 bytes a block).
 */
export const SCHEMA_VERSION = 1;
/** "gasf" in ASCII: marks the file as a gasfees history, so that another SQLite file is never taken for one. */
export const APPLICATION_ID = 0x67617366;

/** The tables of one chain. `chainId` is a checked positive safe integer, so the names need no quoting. */
export interface ChainTables {
  readonly chunks: string;
  readonly records: string;
}

export function chainTables(chainId: number): ChainTables {
  return { chunks: `chunks_${chainId}`, records: `records_${chainId}` };
}

/** Creates a chain's tables if missing (inside the caller's write transaction) and lists the chain. */
export function createChainTables(db: DatabaseSync, chainId: number): void {
  const { chunks, records } = chainTables(chainId);
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${chunks} (chunk INTEGER PRIMARY KEY, held INTEGER NOT NULL, record INTEGER NOT NULL);` +
      `CREATE TABLE IF NOT EXISTS ${records} (record INTEGER PRIMARY KEY, data BLOB NOT NULL);` +
      `INSERT OR IGNORE INTO chains (chain_id) VALUES (${chainId});`,
  );
}

/** Whether a chain's tables exist (another process may have made them since this one last looked). */
export function chainTablesExist(db: DatabaseSync, chainId: number): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(chainTables(chainId).chunks) !== undefined;
}

interface FileIdentity {
  readonly applicationId: number;
  readonly schemaVersion: number;
  readonly tables: number;
}

/**
 * The file's identity, read in one snapshot: three reads outside a transaction could straddle another process's
 * creation of the schema (its table seen, its mark not yet), and a new history would be taken for a foreign file.
 */
function identityOf(db: DatabaseSync): FileIdentity {
  const read = () => {
    const applicationId = Number(db.prepare("PRAGMA application_id").get()?.application_id ?? 0);
    const schemaVersion = Number(db.prepare("PRAGMA user_version").get()?.user_version ?? 0);
    const tables = Number(db.prepare("SELECT count(*) AS tables FROM sqlite_schema").get()?.tables ?? 0);
    return { applicationId, schemaVersion, tables };
  };
  if (db.isTransaction) return read();
  db.exec("BEGIN");
  try {
    return read();
  } finally {
    rollback(db);
  }
}

const isEmptyFile = (identity: FileIdentity) => identity.applicationId === 0 && identity.schemaVersion === 0 && identity.tables === 0;

/**
 * Makes `db` (just opened on `file`) a history database of this schema: a new or empty file gets the schema; a
 * history of this schema is used as it is; anything else is refused with an error saying what to do, and is left
 * untouched (its identity is read before anything is written). Two processes may open the same new file at once:
 * the schema is created under the write lock, by whichever comes first.
 */
export function prepareSchema(db: DatabaseSync, file: string): void {
  let identity = identityOf(db);
  const created = isEmptyFile(identity);
  if (created) {
    // WAL first (it cannot change inside a transaction): readers never block the writer, nor the writer readers.
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("BEGIN IMMEDIATE");
    try {
      identity = identityOf(db);
      if (isEmptyFile(identity)) {
        db.exec(`CREATE TABLE chains (chain_id INTEGER PRIMARY KEY); PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION};`);
        identity = identityOf(db);
      }
      db.exec("COMMIT");
    } catch (error) {
      rollback(db);
      throw error;
    }
  }
  checkIdentity(identity, file);
  if (!created) checkPages(db, file);
  db.exec("PRAGMA journal_mode = WAL");
}

/**
 * Refuses a history damaged inside its pages before anything is written into it (a write into a damaged B-tree
 * may spread the damage, and the file is the user's to recover): SQLite's quick_check reads every page once and
 * checks its structure (not the indexes against their tables, which the history does not have).
 */
function checkPages(db: DatabaseSync, file: string): void {
  const problems = (db.prepare("PRAGMA quick_check(3)").all() as Array<{ quick_check: string }>).map((row) => row.quick_check);
  if (problems.length === 1 && problems[0] === "ok") return;
  throw new HistoryStoreCorruptError(file, `SQLite's quick_check: ${problems.join("; ")}`);
}

function checkIdentity(identity: FileIdentity, file: string): void {
  if (identity.applicationId !== APPLICATION_ID) {
    throw new HistoryStoreForeignFileError(
      file,
      identity.applicationId === 0
        ? `it holds ${identity.tables} tables and no gasfees mark`
        : `its application id is 0x${identity.applicationId.toString(16)}`,
    );
  }
  if (identity.schemaVersion > SCHEMA_VERSION) throw new HistoryStoreNewerSchemaError(file, identity.schemaVersion, SCHEMA_VERSION);
  if (identity.schemaVersion !== SCHEMA_VERSION)
    throw new HistoryStoreCorruptError(file, `its schema version is ${identity.schemaVersion}, which no gasfees wrote`);
}

/** Ends the open transaction, if SQLite has not already ended it. */
export function rollback(db: DatabaseSync): void {
  try {
    db.exec("ROLLBACK");
  } catch {
    // SQLite rolls back by itself on some errors (a full disk, an I/O error): then there is nothing to end.
  }
}
