import type { DatabaseSync, StatementSync } from "node:sqlite";
import { chainTables } from "./storeSchema.ts";

/** A stored chunk as the statements read it (integers as bigints: `held` is a 64-bit mask). */
export interface ChunkRow {
  readonly chunk: bigint;
  readonly held: bigint;
  readonly record: bigint;
  readonly data: Uint8Array;
}

/** The statements that read and write one chain's tables, prepared once per chain and store. */
export interface ChainStatements {
  /** (fromChunk, toChunk, limit): the chunks in that range with their records, ascending, at most `limit`. */
  readonly chunksBetween: StatementSync;
  /**
   * (): every chunk as [chunk, low, high], ascending: its held mask's two 32-bit halves as plain numbers (no bigint
   * per row). Reads the small chunks table only.
   */
  readonly heldHalves: StatementSync;
  /** (beforeChunk): the held masks of the chunks before it. */
  readonly heldMasksBefore: StatementSync;
  /** (data): a new record, appended (its id is the largest yet); returns lastInsertRowid. */
  readonly insertRecord: StatementSync;
  /** (data, record) */
  readonly updateRecord: StatementSync;
  /** (record) */
  readonly deleteRecord: StatementSync;
  /** (beforeChunk): the records of the chunks before it. */
  readonly deleteRecordsBefore: StatementSync;
  /** (chunk, held, record) */
  readonly insertChunk: StatementSync;
  /** (held, chunk) */
  readonly updateHeld: StatementSync;
  /** (chunk) */
  readonly deleteChunk: StatementSync;
  /** (beforeChunk) */
  readonly deleteChunksBefore: StatementSync;
}

export function prepareChainStatements(db: DatabaseSync, chainId: number): ChainStatements {
  const { chunks, records } = chainTables(chainId);
  const reading = (sql: string) => {
    const statement = db.prepare(sql);
    statement.setReadBigInts(true);
    return statement;
  };
  const rowsAsArrays = (statement: StatementSync) => {
    statement.setReturnArrays(true);
    return statement;
  };
  return {
    chunksBetween: reading(
      `SELECT c.chunk AS chunk, c.held AS held, c.record AS record, r.data AS data FROM ${chunks} AS c JOIN ${records} AS r ON r.record = c.record ` +
        `WHERE c.chunk BETWEEN ? AND ? ORDER BY c.chunk LIMIT ?`,
    ),
    heldHalves: rowsAsArrays(db.prepare(`SELECT chunk, held & 4294967295, (held >> 32) & 4294967295 FROM ${chunks} ORDER BY chunk`)),
    heldMasksBefore: reading(`SELECT held FROM ${chunks} WHERE chunk < ?`),
    insertRecord: db.prepare(`INSERT INTO ${records} (data) VALUES (?)`),
    updateRecord: db.prepare(`UPDATE ${records} SET data = ? WHERE record = ?`),
    deleteRecord: db.prepare(`DELETE FROM ${records} WHERE record = ?`),
    deleteRecordsBefore: db.prepare(`DELETE FROM ${records} WHERE record IN (SELECT record FROM ${chunks} WHERE chunk < ?)`),
    insertChunk: db.prepare(`INSERT INTO ${chunks} (chunk, held, record) VALUES (?, ?, ?)`),
    updateHeld: db.prepare(`UPDATE ${chunks} SET held = ? WHERE chunk = ?`),
    deleteChunk: db.prepare(`DELETE FROM ${chunks} WHERE chunk = ?`),
    deleteChunksBefore: db.prepare(`DELETE FROM ${chunks} WHERE chunk < ?`),
  };
}
