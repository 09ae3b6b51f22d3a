import type { DatabaseSync, StatementSync } from "node:sqlite";
import { storeErrorFrom } from "./storeErrorFrom.ts";

/**
 * The gas tokens' price points, in the history's SQLite file, so that past ranges are shown in money after a restart:
 *
 *   price_points (chain_id INTEGER, time INTEGER, value TEXT, source TEXT, PRIMARY KEY (chain_id, time))
 *
 * One row per feed round seen (its updatedAt, the price as /costs writes it, and the key of the endpoint it was read
 * from: pricePoints.ts). Created when the file is opened, as alert_firings is (an older gasfees ignores the table, so
 * the schema version stays); `source` is added to a table made before it (its rows have none). A point read again with
 * another value replaces its row; the points of an endpoint set aside for lying are removed.
 */
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS price_points (
  chain_id INTEGER NOT NULL,
  time INTEGER NOT NULL,
  value TEXT NOT NULL,
  source TEXT,
  PRIMARY KEY (chain_id, time)
) WITHOUT ROWID`;

interface PointRow {
  readonly time: unknown;
  readonly value: unknown;
  readonly source: unknown;
}

/** A point as kept: its time, its value, and the key of its endpoint (none for rows kept before sources were). */
export interface StoredPricePoint {
  readonly time: number;
  readonly value: string;
  readonly source?: string | undefined;
}

/** A PricePointLog (shared/service/pricePoints.ts) on the history file's open database: HistoryStore.open makes it. */
export class PricePointStore {
  readonly #file: string;
  readonly #db: DatabaseSync;
  readonly #insert: StatementSync;
  readonly #select: StatementSync;
  readonly #deleteFrom: StatementSync;
  readonly #deleteAt: StatementSync;

  private constructor(file: string, db: DatabaseSync) {
    this.#file = file;
    this.#db = db;
    this.#insert = db.prepare("INSERT OR REPLACE INTO price_points (chain_id, time, value, source) VALUES (?, ?, ?, ?)");
    this.#deleteFrom = db.prepare("DELETE FROM price_points WHERE chain_id = ? AND source = ?");
    this.#deleteAt = db.prepare("DELETE FROM price_points WHERE chain_id = ? AND time = ?");
    // The newest point at or before `from` leads, as the price in force at the range's start.
    this.#select = db.prepare(
      `SELECT time, value, source FROM price_points WHERE chain_id = ? AND time >= COALESCE((SELECT MAX(time) FROM price_points WHERE chain_id = ? AND time <= ?), ?) ORDER BY time`,
    );
  }

  static open(file: string, db: DatabaseSync): PricePointStore {
    db.exec(CREATE_TABLE);
    const columns = db.prepare("PRAGMA table_info(price_points)").all() as unknown as { name: unknown }[];
    if (!columns.some((column) => column.name === "source")) db.exec("ALTER TABLE price_points ADD COLUMN source TEXT");
    return new PricePointStore(file, db);
  }

  /**
   * Each point replacing the row at its time; all or none: in one savepoint (a transaction of its own, or a part of one
   * already open on the file).
   */
  append(chainId: number, points: readonly StoredPricePoint[]): void {
    if (!this.#db.isOpen || points.length === 0) return;
    this.#inSavepoint("keep a price point in", () => {
      for (const point of points) this.#insert.run(chainId, point.time, point.value, point.source ?? null);
    });
  }

  /** Removes the chain's points read from `source` (an endpoint set aside for lying); how many there were. */
  removeFrom(chainId: number, source: string): number {
    if (!this.#db.isOpen) return 0;
    let removed = 0;
    this.#inSavepoint("remove price points from", () => {
      removed = Number(this.#deleteFrom.run(chainId, source).changes);
    });
    return removed;
  }

  /** Removes the chain's points at `times` (all or none). */
  remove(chainId: number, times: readonly number[]): void {
    if (!this.#db.isOpen || times.length === 0) return;
    this.#inSavepoint("remove price points from", () => {
      for (const time of times) this.#deleteAt.run(chainId, time);
    });
  }

  #inSavepoint(doing: string, change: () => void): void {
    try {
      this.#db.exec("SAVEPOINT price_points");
      try {
        change();
        this.#db.exec("RELEASE price_points");
      } catch (error) {
        this.#db.exec("ROLLBACK TO price_points");
        this.#db.exec("RELEASE price_points");
        throw error;
      }
    } catch (error) {
      throw storeErrorFrom(this.#file, doing, error);
    }
  }

  /** The chain's points from `fromS` on (led by the one in force at fromS); a row this gasfees cannot read is left out. */
  load(chainId: number, fromS: number): readonly StoredPricePoint[] {
    if (!this.#db.isOpen) return [];
    let rows: PointRow[];
    try {
      rows = this.#select.all(chainId, chainId, fromS, fromS) as unknown as PointRow[];
    } catch (error) {
      throw storeErrorFrom(this.#file, "read the price points of", error);
    }
    return rows.flatMap((row) =>
      typeof row.time === "number" && Number.isSafeInteger(row.time) && typeof row.value === "string" && /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/.test(row.value)
        ? [typeof row.source === "string" ? { time: row.time, value: row.value, source: row.source } : { time: row.time, value: row.value }]
        : [],
    );
  }
}
