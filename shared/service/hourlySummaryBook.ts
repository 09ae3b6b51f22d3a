import type { HourlySummary } from "../core/outlook/hourlySummary.ts";

/**
 * One chain's hourly summaries in memory, by hour: the one place the service's publication takes them from
 * (`publication.hourlySummaries`). ChainRecord feeds it with the hours it builds from its blocks and with what the
 * store held at start; FeeService feeds it with every summary written through `StoreWriter.writeHourlySummaries`
 * (the outlook backfill's). `list` is a frozen array, oldest first, made anew only when an hour was added, changed or
 * dropped, so that readers can tell a change by identity.
 */
export class HourlySummaryBook {
  readonly #byStart = new Map<number, HourlySummary>();
  #list: readonly HourlySummary[] = Object.freeze([]);
  #stale = false;

  /** Keeps each summary as its hour's (replacing the one held); returns whether any hour was added or changed. */
  put(summaries: readonly HourlySummary[]): boolean {
    let changed = false;
    for (const summary of summaries) {
      const held = this.#byStart.get(summary.start);
      if (held !== undefined && sameSummary(held, summary)) continue;
      this.#byStart.set(summary.start, Object.isFrozen(summary) ? summary : Object.freeze({ ...summary }));
      changed = true;
    }
    if (changed) this.#stale = true;
    return changed;
  }

  /** The summary of the hour that starts at `start`, if held. */
  get(start: number): HourlySummary | undefined {
    return this.#byStart.get(start);
  }

  /** Drops the hours that start before `beforeStart`; returns whether any was dropped. */
  pruneBefore(beforeStart: number): boolean {
    let dropped = false;
    for (const start of this.#byStart.keys()) {
      if (start >= beforeStart) continue;
      this.#byStart.delete(start);
      dropped = true;
    }
    if (dropped) this.#stale = true;
    return dropped;
  }

  get size(): number {
    return this.#byStart.size;
  }

  /** Every summary held, oldest first (the same array until an hour changes). */
  get list(): readonly HourlySummary[] {
    if (this.#stale) {
      this.#list = Object.freeze([...this.#byStart.values()].sort((a, b) => a.start - b.start));
      this.#stale = false;
    }
    return this.#list;
  }
}

export function sameSummary(a: HourlySummary, b: HourlySummary): boolean {
  return (
    a.start === b.start &&
    a.blocks === b.blocks &&
    a.sampled === b.sampled &&
    a.min === b.min &&
    a.p10 === b.p10 &&
    a.p50 === b.p50 &&
    a.p90 === b.p90 &&
    a.max === b.max &&
    a.last === b.last
  );
}
