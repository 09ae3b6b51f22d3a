// A chain's outlook, prepared off the request path (CONTRACT.md, "Outlook: wait or pay now"): the estimator fed each
// hour once when it closes, the forecast at the current base fee once per block and horizon, and each horizon's
// backtest kept as a record of its walk-forward forecasts that grows by one forecast an hour and is scored anew.
import type { HourlySummary } from "../core/outlook/hourlySummary.ts";
import { extendRecords, type ForecastRecord, type PooledBacktest, recordSlices, recordsFrom, scoreSlices } from "../core/outlook/outlookBacktestSlices.ts";
import type { ForecastMoment, LowestFeeForecast, OutlookEstimator } from "../core/outlook/outlookEstimator.ts";
import { type OutlookBasis, outlookBasisOf } from "../core/outlook/outlookFigures.ts";
import { SliceQueue } from "./outlookSlices.ts";

/** The horizons (hours) whose backtest is always kept: those the dashboard offers. */
export const EAGER_HORIZONS: readonly number[] = Object.freeze([1, 3, 6, 12, 24]);
/** Other horizons kept at most, once asked (each grows by a forecast an hour); the one asked longest ago goes first. */
const DEFAULT_KEPT_HORIZONS = 8;
/** Hours appended at once that the live estimator observes on the publishing turn; more are replayed in slices. */
const MOST_HOURS_OBSERVED_AT_ONCE = 24;

export interface ChainOutlookOptions {
  /** A fresh estimator: one replayed over the summaries (then the live one), one per other horizon's first backtest. */
  readonly createEstimator: () => OutlookEstimator;
  readonly eagerHorizons?: readonly number[];
  readonly keptHorizons?: number;
  /** Steps (an hour observed or a moment forecast at) between two looks at the clock; default 1. */
  readonly stepsPerSlice?: number;
  /** Milliseconds of work per turn of the event loop; default 3. */
  readonly sliceMs?: number;
  /** Runs a slice at a later turn of the event loop; default setImmediate. */
  readonly nextTurn?: (step: () => void) => void;
}

/** A value ready now, or one being prepared in slices. */
type Prepared<T> = { readonly done: T } | { readonly pending: Promise<T> };

/** The estimator that observed every hour of the summaries, in order, and the records of the horizons kept. */
interface Live {
  readonly estimator: OutlookEstimator;
  readonly records: Map<number, ForecastRecord>;
}

/** What is prepared from one array of summaries: replaced when an hour closes (or a held hour is rebuilt). */
interface Version {
  readonly summaries: readonly HourlySummary[];
  readonly basis: OutlookBasis;
  live: Prepared<Live>;
  readonly backtests: Map<number, Prepared<PooledBacktest>>;
  /** The moment the cached forecasts are for, and them by horizon. */
  forecastMoment: string;
  readonly forecasts: Map<number, LowestFeeForecast>;
}

/** One chain's outlook: FeeService keeps one per chain and hands it each new array of summaries. */
export class ChainOutlook {
  readonly #createEstimator: () => OutlookEstimator;
  readonly #eager: readonly number[];
  readonly #keptHorizons: number;
  readonly #stepsPerSlice: number;
  readonly #queue: SliceQueue;
  #version: Version;
  /** Each kept horizon's newest backtest: answered while the next hour's is scored. */
  readonly #lastBacktest = new Map<number, PooledBacktest>();

  constructor(options: ChainOutlookOptions) {
    this.#createEstimator = options.createEstimator;
    this.#eager = options.eagerHorizons ?? EAGER_HORIZONS;
    this.#keptHorizons = options.keptHorizons ?? DEFAULT_KEPT_HORIZONS;
    this.#stepsPerSlice = options.stepsPerSlice ?? 1;
    this.#queue = new SliceQueue(options.nextTurn, options.sliceMs);
    this.#version = this.#newVersion([]);
    const records = new Map(this.#eager.map((withinHours) => [withinHours, emptyRecord(withinHours)]));
    this.#version.live = { done: { estimator: options.createEstimator(), records } };
  }

  /** The summaries prepared from, oldest first. */
  get summaries(): readonly HourlySummary[] {
    return this.#version.summaries;
  }

  get basis(): OutlookBasis {
    return this.#version.basis;
  }

  /** Sliced jobs running or waiting (tests watch a long one). */
  get pendingJobs(): number {
    return this.#queue.pending;
  }

  /** Settles when everything asked so far is prepared. */
  whenIdle(): Promise<void> {
    return this.#queue.whenIdle();
  }

  /**
   * The chain's summaries as published. The same array is nothing new. Hours appended to those prepared (an hour
   * closing) are observed at once by the live estimator, and each kept horizon's record takes its forecast at their end;
   * the records are then scored in slices. Any other change (a held hour rebuilt, older hours backfilled) replays a fresh
   * estimator over them all, in slices, recording the usual horizons.
   */
  take(summaries: readonly HourlySummary[]): void {
    const previous = this.#version;
    if (summaries === previous.summaries) return;
    // Still none: nothing to prepare.
    if (summaries.length === 0 && previous.summaries.length === 0) {
      this.#version = { ...previous, summaries };
      return;
    }
    const added = appendedTo(previous.summaries, summaries);
    const version = this.#newVersion(summaries);
    this.#version = version;
    if (added !== undefined && added <= MOST_HOURS_OBSERVED_AT_ONCE && previous.summaries.length > 0 && "done" in previous.live) {
      const live = previous.live.done;
      const from = recordsFrom(summaries);
      for (const hour of summaries.slice(summaries.length - added)) {
        live.estimator.observe(hour);
        extendRecords(live.records.values(), live.estimator, hour, from);
      }
      version.live = { done: live };
      for (const withinHours of live.records.keys()) this.#startScore(version, withinHours, false);
      return;
    }
    const pending = this.#replay(version);
    pending.catch(() => undefined);
    version.live = { pending };
  }

  /** The live estimator's forecast at `moment` for `withinHours`, made once per moment (a block) and horizon. */
  forecast(moment: ForecastMoment, withinHours: number): LowestFeeForecast | Promise<LowestFeeForecast> {
    const version = this.#version;
    const { live } = version;
    if ("pending" in live) return live.pending.then(() => this.forecast(moment, withinHours));
    const key = `${moment.timestamp}:${moment.baseFee}`;
    if (version.forecastMoment !== key) {
      version.forecastMoment = key;
      version.forecasts.clear();
    }
    let forecast = version.forecasts.get(withinHours);
    if (forecast === undefined) {
      forecast = live.done.estimator.forecast(moment, withinHours);
      version.forecasts.set(withinHours, forecast);
    }
    return forecast;
  }

  /**
   * The backtest of `withinHours` over the summaries: ready now when scored (the previous hour's while the new hour's
   * is scored); a horizon not kept is replayed at its first ask, in slices ahead of other work, and kept from then on.
   */
  backtest(withinHours: number): PooledBacktest | Promise<PooledBacktest> {
    const version = this.#version;
    let held = version.backtests.get(withinHours);
    if (held === undefined) {
      const { live } = version;
      if ("pending" in live) return live.pending.then(() => this.backtest(withinHours));
      held = live.done.records.has(withinHours) ? this.#startScore(version, withinHours, true) : this.#startRecord(version, withinHours);
    }
    if ("done" in held) return held.done;
    return this.#lastBacktest.get(withinHours) ?? held.pending;
  }

  #newVersion(summaries: readonly HourlySummary[]): Version {
    return {
      summaries,
      basis: outlookBasisOf(summaries),
      live: { pending: new Promise<Live>(() => undefined) },
      backtests: new Map(),
      forecastMoment: "",
      forecasts: new Map(),
    };
  }

  /** A fresh estimator replayed over the version's summaries, recording the usual horizons; then they are scored. */
  #replay(version: Version): Promise<Live> {
    return new Promise((resolve, reject) => {
      const estimator = this.#createEstimator();
      const record = recordSlices(version.summaries, estimator, this.#eager, this.#stepsPerSlice);
      const eager = this.#eager;
      const lastBacktest = this.#lastBacktest;
      const started = (live: Live) => {
        version.live = { done: live };
        for (const withinHours of eager) this.#startScore(version, withinHours, false);
        resolve(live);
      };
      const sliced = function* (): Generator<void, void, void> {
        const records = yield* record;
        // The summaries changed in the past: the other horizons are replayed again when next asked.
        for (const withinHours of lastBacktest.keys()) if (!eager.includes(withinHours)) lastBacktest.delete(withinHours);
        started({ estimator, records: new Map(records.map((kept) => [kept.withinHours, kept])) });
      };
      this.#queue.push(
        {
          slices: sliced(),
          superseded: () => this.#version !== version,
          // Replaced before it was ready: whoever waits gets the newest summaries' estimator.
          dropped: () => resolve(this.#currentLive()),
          failed: reject,
        },
        true,
      );
    });
  }

  #currentLive(): Promise<Live> {
    const { live } = this.#version;
    return "done" in live ? Promise.resolve(live.done) : live.pending;
  }

  /** Scores the kept record of `withinHours` as it stands for the version's summaries. */
  #startScore(version: Version, withinHours: number, urgent: boolean): Prepared<PooledBacktest> {
    const live = (version.live as { done: Live }).done;
    const record = copyOf(live.records.get(withinHours)!);
    return this.#startBacktest(version, withinHours, urgent, scoreSlices(version.summaries, record));
  }

  /** A horizon not kept: a fresh estimator replayed over the version's summaries for it, its record then kept. */
  #startRecord(version: Version, withinHours: number): Prepared<PooledBacktest> {
    const live = (version.live as { done: Live }).done;
    const estimator = this.#createEstimator();
    const summaries = version.summaries;
    const stepsPerSlice = this.#stepsPerSlice;
    const keep = (record: ForecastRecord) => this.#keep(live, record);
    const slices = (function* (): Generator<void, PooledBacktest, void> {
      const [record] = yield* recordSlices(summaries, estimator, [withinHours], stepsPerSlice);
      keep(record!);
      yield;
      return yield* scoreSlices(summaries, copyOf(record!));
    })();
    return this.#startBacktest(version, withinHours, true, slices);
  }

  /** Keeps a horizon's record in the live set, the horizon asked longest ago (not a usual one) let go past the bound. */
  #keep(live: Live, record: ForecastRecord): void {
    live.records.set(record.withinHours, record);
    const others = [...live.records.keys()].filter((withinHours) => !this.#eager.includes(withinHours));
    for (const withinHours of others.slice(0, Math.max(0, others.length - this.#keptHorizons))) {
      live.records.delete(withinHours);
      this.#lastBacktest.delete(withinHours);
    }
  }

  #startBacktest(version: Version, withinHours: number, urgent: boolean, slices: Generator<void, PooledBacktest, void>): Prepared<PooledBacktest> {
    const pending = new Promise<PooledBacktest>((resolve, reject) => {
      const lastBacktest = this.#lastBacktest;
      const sliced = function* (): Generator<void, void, void> {
        const backtest = yield* slices;
        version.backtests.set(withinHours, { done: backtest });
        lastBacktest.set(withinHours, backtest);
        resolve(backtest);
      };
      this.#queue.push(
        {
          slices: sliced(),
          superseded: () => this.#version !== version,
          // Asked of summaries since replaced: the newest summaries' backtest answers instead.
          dropped: () => resolve(Promise.resolve(this.backtest(withinHours))),
          failed: reject,
        },
        urgent,
      );
    });
    // A backtest scored with no one waiting that fails is told to whoever asks for it next.
    pending.catch(() => undefined);
    const prepared = { pending };
    version.backtests.set(withinHours, prepared);
    return prepared;
  }
}

function emptyRecord(withinHours: number): ForecastRecord {
  return { withinHours, probability: [[], [], []], quantile: [[], [], []] };
}

/** The record as it stands: it grows as hours close, the copy does not. */
function copyOf(record: ForecastRecord): ForecastRecord {
  return {
    withinHours: record.withinHours,
    probability: record.probability.map((column) => column.slice()),
    quantile: record.quantile.map((column) => column.slice()),
  };
}

/** How many hours `next` appends to `previous` (the same hours, the same objects, then more); undefined otherwise. */
function appendedTo(previous: readonly HourlySummary[], next: readonly HourlySummary[]): number | undefined {
  if (next.length < previous.length) return undefined;
  for (let index = 0; index < previous.length; index += 1) if (previous[index] !== next[index]) return undefined;
  return next.length - previous.length;
}
