// The price points a chain's gas token had: one per feed round seen, kept for the history horizon, so that past ranges
// can be shown in money (GET /networks/{chainId}/priceHistory).
import type { PricePoint } from "../wire/costs.ts";

/** The most points kept per chain: a round a minute for a week (no default feed writes more often than that is read). */
export const MAX_PRICE_POINTS = 7 * 24 * 60;

/** Where the points outlive a restart (the history file's price_points table); in memory only without one. */
export interface PricePointLog {
  append(chainId: number, point: PricePoint): void;
  load(chainId: number, fromS: number): readonly PricePoint[];
}

/** One chain's points, oldest first, in memory (and written through to the log when there is one). */
export class PricePoints {
  readonly #chainId: number;
  readonly #log: PricePointLog | undefined;
  readonly #horizonS: number;
  #points: PricePoint[];

  constructor(chainId: number, horizonS: number, nowS: number, log: PricePointLog | undefined) {
    this.#chainId = chainId;
    this.#log = log;
    this.#horizonS = horizonS;
    this.#points = log === undefined ? [] : [...log.load(chainId, nowS - horizonS)].slice(-MAX_PRICE_POINTS);
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
    this.#log?.append(this.#chainId, point);
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
