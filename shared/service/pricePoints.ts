// The price points a chain's gas token had: one per feed round seen, kept for the history horizon, so that past ranges
// can be shown in money (GET /networks/{chainId}/priceHistory).
import type { PricePoint } from "../wire/costs.ts";

/** The most points kept per chain: a round a minute for a week (no default feed writes more often than that is read). */
export const MAX_PRICE_POINTS = 7 * 24 * 60;

/** Where the points outlive a restart (the history file's price_points table); in memory only without one. */
export interface PricePointLog {
  /** Keeps `points` (all or none); a point whose time is already held is left as it is. */
  append(chainId: number, points: readonly PricePoint[]): void;
  load(chainId: number, fromS: number): readonly PricePoint[];
}

/** One chain's points, oldest first, in memory (and written through to the log when there is one). */
export class PricePoints {
  readonly #chainId: number;
  readonly #log: PricePointLog | undefined;
  readonly #horizonS: number;
  #points: PricePoint[];
  /** The newest point the log held at start: the rounds up to it need not be read back (pastWanted). */
  readonly #heldAtStartS: number | undefined;

  constructor(chainId: number, horizonS: number, nowS: number, log: PricePointLog | undefined) {
    this.#chainId = chainId;
    this.#log = log;
    this.#horizonS = horizonS;
    this.#points = log === undefined ? [] : [...log.load(chainId, nowS - horizonS)].slice(-MAX_PRICE_POINTS);
    this.#heldAtStartS = this.#points.at(-1)?.time;
  }

  /**
   * Which past rounds are worth reading back at `nowS`: those after `afterS` (the newest point held at start, when it
   * is within the horizon), or back to the one in force at the horizon's start (`horizonStartS`).
   */
  pastWanted(nowS: number): { readonly horizonStartS: number; readonly afterS: number | undefined } {
    const horizonStartS = nowS - this.#horizonS;
    const held = this.#heldAtStartS;
    return { horizonStartS, afterS: held !== undefined && held > horizonStartS ? held : undefined };
  }

  /** A round read: kept when it is newer than the newest point (the same round read again adds nothing). */
  add(point: PricePoint): void {
    const newest = this.#points.at(-1);
    if (newest !== undefined && point.time <= newest.time) return;
    this.#points.push(point);
    const oldestKept = point.time - this.#horizonS;
    let drop = 0;
    // The newest point before the horizon stays: it is the price in force at the horizon's start.
    while (drop + 1 < this.#points.length && this.#points[drop + 1]!.time <= oldestKept) drop += 1;
    drop = Math.max(drop, this.#points.length - MAX_PRICE_POINTS);
    if (drop > 0) this.#points = this.#points.slice(drop);
    this.#log?.append(this.#chainId, [point]);
  }

  /**
   * Rounds read back (any order): each merged in at its time, a time already held left as it is, the horizon and the
   * cap applied as `add` applies them (the oldest go first). Throws, keeping none of them, when the log cannot keep them.
   */
  addPast(points: readonly PricePoint[]): void {
    const byTime = new Map(this.#points.map((point) => [point.time, point]));
    const added = points.filter((point) => !byTime.has(point.time));
    if (added.length === 0) return;
    this.#log?.append(this.#chainId, added);
    for (const point of added) byTime.set(point.time, point);
    const merged = [...byTime.values()].sort((a, b) => a.time - b.time);
    const oldestKept = merged.at(-1)!.time - this.#horizonS;
    let drop = 0;
    while (drop + 1 < merged.length && merged[drop + 1]!.time <= oldestKept) drop += 1;
    drop = Math.max(drop, merged.length - MAX_PRICE_POINTS);
    this.#points = merged.slice(drop);
  }

  /** The points of [fromS, toS], oldest first, led by the one in force at fromS (the newest at or before it). */
  range(fromS: number, toS: number): readonly PricePoint[] {
    let inForce: PricePoint | undefined;
    const inside: PricePoint[] = [];
    for (const point of this.#points) {
      if (point.time <= fromS) inForce = point;
      else if (point.time <= toS) inside.push(point);
    }
    return inForce === undefined ? inside : [inForce, ...inside];
  }
}
