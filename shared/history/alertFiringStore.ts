import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { AlertFiringLog, StoredFiring } from "../core/alerts/alertFiringLog.ts";
import { HistoryStoreError } from "./historyStoreErrors.ts";
import { storeErrorFrom } from "./storeErrorFrom.ts";

/**
 * The alert rules' last firings, one row per rule id, in the history's SQLite file:
 *
 *   alert_firings (rule_id TEXT PRIMARY KEY, cooldown_group TEXT, fired_at_ms INTEGER, block INTEGER,
 *                  base_fee_wei TEXT, threshold_wei TEXT)
 *
 * Fees are decimal text: a threshold the user writes may exceed SQLite's 64-bit integers. The table is created when
 * the file is opened, by whichever process opens it first after an update (a file from an older gasfees has every
 * other table and gets this one; the older gasfees ignores it, so the schema version stays). A row is replaced only
 * by a newer firing, so that two processes on one file (the desktop app and `npm run serve`) keep the newest.
 */
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS alert_firings (
  rule_id TEXT PRIMARY KEY,
  cooldown_group TEXT NOT NULL,
  fired_at_ms INTEGER NOT NULL,
  block INTEGER NOT NULL,
  base_fee_wei TEXT NOT NULL,
  threshold_wei TEXT NOT NULL
)`;

const SELECT_ALL = "SELECT rule_id, cooldown_group, fired_at_ms, block, base_fee_wei, threshold_wei FROM alert_firings ORDER BY rule_id";

const UPSERT = `INSERT INTO alert_firings (rule_id, cooldown_group, fired_at_ms, block, base_fee_wei, threshold_wei) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (rule_id) DO UPDATE SET cooldown_group = excluded.cooldown_group, fired_at_ms = excluded.fired_at_ms, block = excluded.block,
    base_fee_wei = excluded.base_fee_wei, threshold_wei = excluded.threshold_wei
  WHERE excluded.fired_at_ms >= alert_firings.fired_at_ms`;

interface FiringRow {
  readonly rule_id: unknown;
  readonly cooldown_group: unknown;
  readonly fired_at_ms: unknown;
  readonly block: unknown;
  readonly base_fee_wei: unknown;
  readonly threshold_wei: unknown;
}

/**
 * The AlertFiringLog of a history file: HistoryStore.open makes it (`store.alertFirings`) on the store's open database.
 * Each call is one short statement; a write waits for another process's write for at most the store's busy timeout.
 * Failures are HistoryStoreErrors naming the file.
 */
export class AlertFiringStore implements AlertFiringLog {
  readonly #file: string;
  readonly #db: DatabaseSync;
  readonly #selectAll: StatementSync;
  readonly #upsert: StatementSync;

  private constructor(file: string, db: DatabaseSync) {
    this.#file = file;
    this.#db = db;
    this.#selectAll = db.prepare(SELECT_ALL);
    this.#selectAll.setReadBigInts(true);
    this.#upsert = db.prepare(UPSERT);
  }

  /** Creates the table in `db` (the history file `file`, just opened) if it is missing, and prepares its statements. */
  static open(file: string, db: DatabaseSync): AlertFiringStore {
    db.exec(CREATE_TABLE);
    return new AlertFiringStore(file, db);
  }

  /** Every rule's kept firing. A row this gasfees cannot read (written by hand, or damaged) is left out. */
  load(): readonly StoredFiring[] {
    this.#ensureOpen();
    let rows: FiringRow[];
    try {
      rows = this.#selectAll.all() as unknown as FiringRow[];
    } catch (error) {
      throw storeErrorFrom(this.#file, "read the alert firings of", error);
    }
    return rows.flatMap((row) => {
      const firing = firingOf(row);
      return firing === undefined ? [] : [firing];
    });
  }

  /** Keeps `firing` as its rule's last, unless the kept one is newer. */
  record(firing: StoredFiring): void {
    this.#ensureOpen();
    try {
      this.#upsert.run(firing.ruleId, firing.cooldownGroup, firing.atMs, firing.block, firing.baseFeeWei.toString(), firing.thresholdWei.toString());
    } catch (error) {
      throw storeErrorFrom(this.#file, "record an alert firing in", error);
    }
  }

  #ensureOpen(): void {
    if (!this.#db.isOpen) throw new HistoryStoreError(this.#file, `The history store of ${this.#file} is closed: open it again to use it.`);
  }
}

/** A row as a StoredFiring, or undefined when a field is not what this table's writer writes. */
function firingOf(row: FiringRow): StoredFiring | undefined {
  const { rule_id: ruleId, cooldown_group: cooldownGroup, fired_at_ms: atMs, block, base_fee_wei: baseFee, threshold_wei: threshold } = row;
  if (typeof ruleId !== "string" || typeof cooldownGroup !== "string" || typeof atMs !== "bigint" || typeof block !== "bigint") return undefined;
  const baseFeeWei = weiOf(baseFee);
  const thresholdWei = weiOf(threshold);
  if (baseFeeWei === undefined || thresholdWei === undefined || block < 0n || atMs < 0n || atMs > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return { ruleId, cooldownGroup, atMs: Number(atMs), block, baseFeeWei, thresholdWei };
}

const weiOf = (text: unknown): bigint | undefined => (typeof text === "string" && /^[0-9]+$/.test(text) ? BigInt(text) : undefined);
