// The price points a chain's gas token had: one per feed round seen, kept for the history horizon, so that past ranges
// can be shown in money (GET /networks/{chainId}/priceHistory). Each point says which endpoint it was read from (a
// key of its URL, never the URL: it may hold a secret), so that a lie found later can be removed and read again; a
// round read again with another value replaces the point, which is never kept because its time is held.
import { createHash } from "node:crypto";
import { FUTURE_SLACK_S } from "../core/costs/priceRound.ts";
import type { PricePoint } from "../wire/costs.ts";

/** The most points kept per chain: a round a minute for a week (no default feed writes more often than that is read). */
export const MAX_PRICE_POINTS = 7 * 24 * 60;

/** A point and the key of the endpoint it was read from (undefined for points kept before sources were). */
export interface SourcedPricePoint extends PricePoint {
  readonly source?: string | undefined;
}

/** The key a point's endpoint is kept as: the first 16 hex digits of the SHA-256 of its URL as configured. */
export function priceSourceOf(endpointUrl: string): string {
  return createHash("sha256").update(endpointUrl).digest("hex").slice(0, 16);
}

/** Where the points outlive a restart (the history file's price_points table); in memory only without one. */
export interface PricePointLog {
  /** Keeps `points` (all or none), each replacing the point held at its time. */
  append(chainId: number, points: readonly SourcedPricePoint[]): void;
  load(chainId: number, fromS: number): readonly SourcedPricePoint[];
  /** Removes the chain's points read from `source`; how many there were. */
  removeFrom(chainId: number, source: string): number;
  /** Removes the chain's points at `times`. */
  remove(chainId: number, times: readonly number[]): void;
}

/** One chain's points, oldest first, in memory (and written through to the log when there is one). */
export class PricePoints {
  readonly #chainId: number;
  readonly #log: PricePointLog | undefined;
  readonly #horizonS: number;
  #points: SourcedPricePoint[];
  /**
   * The newest point held that needs no reading back (pastWanted): the newest the log held at start, or after points
   * were forgotten, the newest older than the oldest forgotten.
   */
  #checkedUpToS: number | undefined;

  constructor(chainId: number, horizonS: number, nowS: number, log: PricePointLog | undefined) {
    this.#chainId = chainId;
    this.#log = log;
    this.#horizonS = horizonS;
    const loaded = log === undefined ? [] : log.load(chainId, nowS - horizonS);
    // A point dated ahead (kept by a gasfees that believed such rounds) would keep the next honest round out.
    const ahead = loaded.filter((point) => point.time > nowS + FUTURE_SLACK_S);
    if (ahead.length > 0)
      log?.remove(
        chainId,
        ahead.map((point) => point.time),
      );
    this.#points = loaded.filter((point) => point.time <= nowS + FUTURE_SLACK_S).slice(-MAX_PRICE_POINTS);
    this.#checkedUpToS = this.#points.at(-1)?.time;
  }

  /**
   * Which past rounds are worth reading back at `nowS`: those after `afterS` (the newest point held at start, when it
   * is within the horizon), or back to the one in force at the horizon's start (`horizonStartS`).
   */
  pastWanted(nowS: number): { readonly horizonStartS: number; readonly afterS: number | undefined } {
    const horizonStartS = nowS - this.#horizonS;
    const held = this.#checkedUpToS;
    return { horizonStartS, afterS: held !== undefined && held > horizonStartS ? held : undefined };
  }

  /** The value held at exactly `timeS`, if any: a round read back is checked against it. */
  valueAt(timeS: number): string | undefined {
    return this.#points.find((point) => point.time === timeS)?.value;
  }

  /**
   * A round read from `source`: kept when it is newer than the newest point; the same round read again with another
   * value replaces the point held at its time; an older round not held adds nothing (another endpoint behind).
   */
  add(point: PricePoint, source?: string): void {
    const newest = this.#points.at(-1);
    if (newest !== undefined && point.time < newest.time && this.valueAt(point.time) === undefined) return;
    this.#merge([point], source);
  }

  /**
   * Rounds read back from `source` (any order): each merged in at its time, replacing a point held there with another
   * value, the horizon and the cap applied as `add` applies them (the oldest go first). Throws, keeping none of them,
   * when the log cannot keep them.
   */
  addPast(points: readonly PricePoint[], source?: string): void {
    this.#merge(points, source);
  }

  /**
   * Removes the points read from `source` (an endpoint set aside for lying), here and in the log, and makes the rounds
   * from the oldest of them on worth reading back again; how many were removed.
   */
  forgetFrom(source: string): number {
    const removed = this.#points.filter((point) => point.source === source);
    const inLog = this.#log?.removeFrom(this.#chainId, source) ?? 0;
    if (removed.length === 0) return inLog;
    const oldestRemovedS = removed[0]!.time;
    this.#points = this.#points.filter((point) => point.source !== source);
    const keptBefore = this.#points.filter((point) => point.time < oldestRemovedS).at(-1)?.time;
    this.#checkedUpToS = this.#checkedUpToS === undefined || keptBefore === undefined ? undefined : Math.min(this.#checkedUpToS, keptBefore);
    return Math.max(removed.length, inLog);
  }

  /** The points of [fromS, toS], oldest first, led by the one in force at fromS (the newest at or before it). */
  range(fromS: number, toS: number): readonly PricePoint[] {
    let inForce: PricePoint | undefined;
    const inside: PricePoint[] = [];
    for (const { time, value } of this.#points) {
      if (time <= fromS) inForce = { time, value };
      else if (time <= toS) inside.push({ time, value });
    }
    return inForce === undefined ? inside : [inForce, ...inside];
  }

  #merge(points: readonly PricePoint[], source: string | undefined): void {
    const byTime = new Map(this.#points.map((point) => [point.time, point]));
    const changed = points
      .filter((point) => byTime.get(point.time)?.value !== point.value)
      .map((point): SourcedPricePoint => ({ time: point.time, value: point.value, source }));
    if (changed.length === 0) return;
    this.#log?.append(this.#chainId, changed);
    for (const point of changed) byTime.set(point.time, point);
    const merged = [...byTime.values()].sort((a, b) => a.time - b.time);
    const oldestKept = merged.at(-1)!.time - this.#horizonS;
    let drop = 0;
    // The newest point before the horizon stays: it is the price in force at the horizon's start.
    while (drop + 1 < merged.length && merged[drop + 1]!.time <= oldestKept) drop += 1;
    drop = Math.max(drop, merged.length - MAX_PRICE_POINTS);
    this.#points = merged.slice(drop);
  }
}
