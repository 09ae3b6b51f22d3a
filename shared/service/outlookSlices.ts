// The outlook's long work (an estimator replayed over a year of hours, a backtest) run a slice per turn of the event
// loop, so that no request, event stream or new block waits behind more than one slice, and so that under load the
// requests keep about half of the loop: a slice lasts no longer than the other work took since the last one.

/** A piece of sliced work: its slices, and what to do when it is dropped before its end. */
export interface SlicedJob {
  readonly slices: Generator<void, void, void>;
  /** True when the job is no longer wanted (the summaries it was for were replaced): it is dropped at its next turn. */
  readonly superseded: () => boolean;
  /** Called instead of finishing when the job is dropped. */
  readonly dropped: () => void;
  /** Called when a slice throws: the job is over, and the ones after it run on. */
  readonly failed: (error: unknown) => void;
}

/** Milliseconds of work in one turn of the event loop, by default: a request or a block waits at most about this. */
export const DEFAULT_SLICE_MS = 3;

/**
 * The shortest slice, however little else the event loop did since the last one: with nothing else to do, a turn
 * costs the loop a few microseconds, so slices this long keep the work going at nearly full speed.
 */
export const MIN_SLICE_MS = 0.5;

/**
 * Jobs run in turn, slices one after another within a turn of the event loop, then the next turn; an urgent job (a
 * client waits for it) goes first. A turn lasts as long as the loop's other work (requests, blocks, timers) took since
 * the previous turn ended, between MIN_SLICE_MS and `sliceMs`: idle, the jobs have nearly all of the loop; under load,
 * they and the requests share it about equally, rather than a 3 ms turn after every few requests' worth of work (which
 * left the requests a small share of the loop while a year of summaries was replayed: docs/benchmarks.md).
 */
export class SliceQueue {
  readonly #jobs: SlicedJob[] = [];
  readonly #nextTurn: (step: () => void) => void;
  readonly #sliceMs: number;
  readonly #idle: (() => void)[] = [];
  readonly #now: () => number;
  #scheduled = false;
  #slices = 0;
  /** When the last turn ended (performance.now()); none yet: the first turn may take `sliceMs`. */
  #lastTurnEnd = Number.NEGATIVE_INFINITY;

  constructor(nextTurn: (step: () => void) => void = (step) => setImmediate(step), sliceMs = DEFAULT_SLICE_MS, now: () => number = () => performance.now()) {
    this.#nextTurn = nextTurn;
    this.#sliceMs = sliceMs;
    this.#now = now;
  }

  /** Jobs running or waiting. */
  get pending(): number {
    return this.#jobs.length;
  }

  /** Slices run so far. */
  get slicesRun(): number {
    return this.#slices;
  }

  push(job: SlicedJob, urgent = false): void {
    // An urgent job goes after the one running (its slice is under way) and before the rest.
    if (urgent && this.#jobs.length > 0) this.#jobs.splice(1, 0, job);
    else this.#jobs.push(job);
    this.#schedule();
  }

  /** Settles when no job runs or waits. */
  whenIdle(): Promise<void> {
    if (this.#jobs.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #schedule(): void {
    if (this.#scheduled || this.#jobs.length === 0) return;
    this.#scheduled = true;
    this.#nextTurn(() => {
      this.#scheduled = false;
      const start = this.#now();
      const otherWorkMs = start - this.#lastTurnEnd;
      const until = start + Math.min(this.#sliceMs, Math.max(Math.min(MIN_SLICE_MS, this.#sliceMs), otherWorkMs));
      do this.#step();
      while (this.#jobs.length > 0 && this.#now() < until);
      this.#lastTurnEnd = this.#now();
      this.#schedule();
      if (this.#jobs.length === 0) for (const resolve of this.#idle.splice(0)) resolve();
    });
  }

  #step(): void {
    const job = this.#jobs[0];
    if (job === undefined) return;
    if (job.superseded()) {
      this.#jobs.shift();
      job.dropped();
      return;
    }
    this.#slices += 1;
    let done: boolean;
    try {
      done = job.slices.next().done === true;
    } catch (error) {
      // A job that throws is over: it must not block the ones after it.
      this.#jobs.splice(this.#jobs.indexOf(job), 1);
      job.failed(error);
      return;
    }
    if (done) this.#jobs.splice(this.#jobs.indexOf(job), 1);
  }
}
