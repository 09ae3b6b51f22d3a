// A chain's outlook, prepared off the request path (CONTRACT.md, "Outlook: wait or pay now"): the estimator replayed
// over the chain's hourly summaries once per closed hour, the forecast at the current base fee once per block and
// horizon, and the backtest of a horizon once per hour (eagerly for the usual ones, on first ask for the others).
import type { HourlySummary } from "../core/outlook/hourlySummary.ts";
import { DEFAULT_HOURS_PER_SLICE, pooledBacktestSlices, type PooledBacktest } from "../core/outlook/outlookBacktestSlices.ts";
import type { ForecastMoment, LowestFeeForecast, OutlookEstimator } from "../core/outlook/outlookEstimator.ts";
import { type OutlookBasis, outlookBasisOf } from "../core/outlook/outlookFigures.ts";
import { SliceQueue } from "./outlookSlices.ts";

/** The horizons (hours) whose backtest is prepared as soon as an hour closes: those the dashboard offers. */
export const EAGER_HORIZONS: readonly number[] = Object.freeze([1, 3, 6, 12, 24]);

export interface ChainOutlookOptions {
  /** A fresh estimator: one for the live forecasts, one per backtest replay. */
  readonly createEstimator: () => OutlookEstimator;
  readonly eagerHorizons?: readonly number[];
  /** Hours replayed per turn of the event loop. */
  readonly hoursPerSlice?: number;
  /** Only summaries of this many hours or more are backtested eagerly (fewer answer NOT_ENOUGH_HISTORY anyway). */
  readonly eagerFromHours?: number;
  /** Runs a slice at a later turn of the event loop; default setImmediate. */
  readonly nextTurn?: (step: () => void) => void;
}

/** A value ready now, or one being prepared in slices. */
type Prepared<T> = { readonly done: T } | { readonly pending: Promise<T> };

/** What is prepared from one array of summaries: replaced when an hour closes (or a held hour is rebuilt). */
interface Version {
  readonly summaries: readonly HourlySummary[];
  readonly basis: OutlookBasis;
  estimator: Prepared<OutlookEstimator>;
  readonly backtests: Map<number, Prepared<PooledBacktest>>;
  /** The moment the cached forecasts are for, and them by horizon. */
  forecastMoment: string;
  readonly forecasts: Map<number, LowestFeeForecast>;
}

/** One chain's outlook: FeeService keeps one per chain and hands it each new array of summaries. */
export class ChainOutlook {
  readonly #createEstimator: () => OutlookEstimator;
  readonly #eager: readonly number[];
  readonly #eagerFromHours: number;
  readonly #hoursPerSlice: number;
  readonly #queue: SliceQueue;
  #version: Version;
  /** The newest backtest of each eager horizon: answered while the next hour's is prepared. */
  readonly #lastEager = new Map<number, PooledBacktest>();

  constructor(options: ChainOutlookOptions) {
    this.#createEstimator = options.createEstimator;
    this.#eager = options.eagerHorizons ?? EAGER_HORIZONS;
    this.#eagerFromHours = options.eagerFromHours ?? 0;
    this.#hoursPerSlice = options.hoursPerSlice ?? DEFAULT_HOURS_PER_SLICE;
    this.#queue = new SliceQueue(options.nextTurn);
    this.#version = this.#newVersion([], { done: options.createEstimator() });
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
   * The chain's summaries as published. The same array is nothing new. Hours appended to those prepared are observed at
   * once by the live estimator (one hour closing: a few microseconds); any other change (a held hour rebuilt, older
   * hours backfilled) replays a fresh estimator over them all, in slices. Each change starts the eager backtests.
   */
  take(summaries: readonly HourlySummary[]): void {
    const previous = this.#version;
    if (summaries === previous.summaries) return;
    const added = appendedTo(previous.summaries, summaries);
    let estimator: Prepared<OutlookEstimator> | undefined;
    if (added !== undefined && added <= this.#hoursPerSlice && "done" in previous.estimator) {
      const live = previous.estimator.done;
      for (const hour of summaries.slice(summaries.length - added)) live.observe(hour);
      estimator = { done: live };
    }
    const version = this.#newVersion(summaries, estimator);
    this.#version = version;
    if (summaries.length < this.#eagerFromHours) return;
    for (const withinHours of this.#eager) this.#startBacktest(version, withinHours, false);
  }

  /** The live estimator's forecast at `moment` for `withinHours`, made once per moment (a block) and horizon. */
  forecast(moment: ForecastMoment, withinHours: number): LowestFeeForecast | Promise<LowestFeeForecast> {
    const version = this.#version;
    const { estimator } = version;
    if ("pending" in estimator) return estimator.pending.then(() => this.forecast(moment, withinHours));
    const key = `${moment.timestamp}:${moment.baseFee}`;
    if (version.forecastMoment !== key) {
      version.forecastMoment = key;
      version.forecasts.clear();
    }
    let forecast = version.forecasts.get(withinHours);
    if (forecast === undefined) {
      forecast = estimator.done.forecast(moment, withinHours);
      version.forecasts.set(withinHours, forecast);
    }
    return forecast;
  }

  /**
   * The backtest of `withinHours` over the summaries: ready now when prepared (an eager horizon's previous one while the
   * new hour's is prepared), else prepared now in slices ahead of the eager ones, and kept until the summaries change.
   */
  backtest(withinHours: number): PooledBacktest | Promise<PooledBacktest> {
    const version = this.#version;
    const held = version.backtests.get(withinHours) ?? this.#startBacktest(version, withinHours, true);
    if ("done" in held) return held.done;
    return this.#lastEager.get(withinHours) ?? held.pending;
  }

  #newVersion(summaries: readonly HourlySummary[], estimator: Prepared<OutlookEstimator> | undefined): Version {
    const version: Version = {
      summaries,
      basis: outlookBasisOf(summaries),
      estimator: estimator ?? { pending: new Promise<OutlookEstimator>(() => undefined) },
      backtests: new Map(),
      forecastMoment: "",
      forecasts: new Map(),
    };
    if (estimator === undefined) {
      const pending = this.#replay(version);
      pending.catch(() => undefined);
      version.estimator = { pending };
    }
    return version;
  }

  /** A fresh estimator fed every hour of the version's summaries, in slices (a client waiting for it goes first). */
  #replay(version: Version): Promise<OutlookEstimator> {
    return new Promise((resolve, reject) => {
      const estimator = this.#createEstimator();
      const hoursPerSlice = this.#hoursPerSlice;
      const sliced = function* (): Generator<void, void, void> {
        for (let index = 0; index < version.summaries.length; index += 1) {
          estimator.observe(version.summaries[index]!);
          if ((index + 1) % hoursPerSlice === 0) yield;
        }
        version.estimator = { done: estimator };
        resolve(estimator);
      };
      this.#queue.push(
        {
          slices: sliced(),
          superseded: () => this.#version !== version,
          // Replaced before it was ready: whoever waits gets the newest summaries' estimator.
          dropped: () => resolve(this.#currentEstimator()),
          failed: reject,
        },
        true,
      );
    });
  }

  #currentEstimator(): Promise<OutlookEstimator> {
    const { estimator } = this.#version;
    return "done" in estimator ? Promise.resolve(estimator.done) : estimator.pending;
  }

  #startBacktest(version: Version, withinHours: number, urgent: boolean): Prepared<PooledBacktest> {
    const eager = this.#eager.includes(withinHours);
    const pending = new Promise<PooledBacktest>((resolve, reject) => {
      const replay = pooledBacktestSlices(version.summaries, this.#createEstimator, withinHours, this.#hoursPerSlice);
      const lastEager = this.#lastEager;
      const sliced = function* (): Generator<void, void, void> {
        const backtest = yield* replay;
        version.backtests.set(withinHours, { done: backtest });
        if (eager) lastEager.set(withinHours, backtest);
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
    // An eager backtest that fails has no one waiting: its failure is told to whoever asks for it next.
    pending.catch(() => undefined);
    const prepared = { pending };
    version.backtests.set(withinHours, prepared);
    return prepared;
  }
}

/** How many hours `next` appends to `previous` (the same hours, the same objects, then more); undefined otherwise. */
function appendedTo(previous: readonly HourlySummary[], next: readonly HourlySummary[]): number | undefined {
  if (next.length < previous.length) return undefined;
  for (let index = 0; index < previous.length; index += 1) if (previous[index] !== next[index]) return undefined;
  return next.length - previous.length;
}
