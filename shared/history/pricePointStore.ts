import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { PricePoint } from "../wire/costs.ts";
import { storeErrorFrom } from "./storeErrorFrom.ts";

/**
 * The gas tokens' price points, in the history's SQLite file, so that past ranges are shown in money after a restart:
 *
 *   price_points (chain_id INTEGER, time INTEGER, value TEXT, PRIMARY KEY (chain_id, time))
 *
 * One row per feed round seen (its updatedAt, and the price as /costs writes it). Created when the file is opened, as
 * alert_firings is (an older gasfees ignores the table, so the schema version stays). Rows older than a chain's history
 * horizon are pruned as points are added.
 */
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS price_points (
  chain_id INTEGER NOT NULL,
  time INTEGER NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (chain_id, time)
) WITHOUT ROWID`;

interface PointRow {
  readonly time: unknown;
  readonly value: unknown;
}

/** A PricePointLog (shared/service/pricePoints.ts) on the history file's open database: HistoryStore.open makes it. */
export class PricePointStore {
  readonly #file: string;
  readonly #db: DatabaseSync;
  readonly #insert: StatementSync;
  readonly #select: StatementSync;

  private constructor(file: string, db: DatabaseSync) {
    this.#file = file;
    this.#db = db;
    this.#insert = db.prepare("INSERT OR IGNORE INTO price_points (chain_id, time, value) VALUES (?, ?, ?)");
    // The newest point at or before `from` leads, as the price in force at the range's start.
    this.#select = db.prepare(
      `SELECT time, value FROM price_points WHERE chain_id = ? AND time >= COALESCE((SELECT MAX(time) FROM price_points WHERE chain_id = ? AND time <= ?), ?) ORDER BY time`,
    );
  }

  static open(file: string, db: DatabaseSync): PricePointStore {
    db.exec(CREATE_TABLE);
    return new PricePointStore(file, db);
  }

  /** All or none: in one savepoint (a transaction of its own, or a part of one already open on the file). */
  append(chainId: number, points: readonly PricePoint[]): void {
    if (!this.#db.isOpen || points.length === 0) return;
    try {
      this.#db.exec("SAVEPOINT price_points");
      try {
        for (const point of points) this.#insert.run(chainId, point.time, point.value);
        this.#db.exec("RELEASE price_points");
      } catch (error) {
        this.#db.exec("ROLLBACK TO price_points");
        this.#db.exec("RELEASE price_points");
        throw error;
      }
    } catch (error) {
      throw storeErrorFrom(this.#file, "keep a price point in", error);
    }
  }

  /** The chain's points from `fromS` on (led by the one in force at fromS); a row this gasfees cannot read is left out. */
  load(chainId: number, fromS: number): readonly PricePoint[] {
    if (!this.#db.isOpen) return [];
    let rows: PointRow[];
    try {
      rows = this.#select.all(chainId, chainId, fromS, fromS) as unknown as PointRow[];
    } catch (error) {
      throw storeErrorFrom(this.#file, "read the price points of", error);
    }
    return rows.flatMap((row) =>
      typeof row.time === "number" && Number.isSafeInteger(row.time) && typeof row.value === "string" && /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/.test(row.value)
        ? [{ time: row.time, value: row.value }]
        : [],
    );
  }
}
