import { HOUR_SECONDS, hourStartOf, type HourlySummary } from "../core/outlook/hourlySummary.ts";
import { summarizeHour } from "../core/outlook/summarizeHour.ts";
import { BackfillAnchors, type BlockAnchor } from "./backfillAnchors.ts";
import type { BackfillPage } from "./backfillPage.ts";
import type { HeldFee } from "./backfillSeams.ts";
import { blocksIn, type BlockRange } from "./backfillRanges.ts";
import type { BackfillWork } from "./backfillWork.ts";

/** A sampled hour whose page fell outside it is aimed again (with the anchors that page gave) at most this often. */
const MAX_AIMS_PER_HOUR = 3;

export interface OutlookBackfillWorkOptions {
  /** The history's oldest block, with its exact timestamp: the outlook's hours end at the start of its hour. */
  readonly floor: BlockAnchor;
  /** Other exact timestamps known (the history's). */
  readonly anchors?: readonly BlockAnchor[];
  /** How far back before the floor's hour, in seconds (`outlookBackfill`). */
  readonly spanSeconds: number;
  /** `every`: every block of the hours wanted; `sampled`: one page in each (planOutlookBackfill). */
  readonly mode: "every" | "sampled";
  /** The chain's seconds per block: the first guess where no anchor is near. */
  readonly blockSpacingSeconds: number;
  /** Blocks per page at most (the endpoint's cap lowers it at each take). */
  readonly pageBlocks: number;
  /** The summaries held for hours of the span (any order): an hour held is not fetched again, unless sampled where every block can be read. */
  readonly heldHours: readonly Pick<HourlySummary, "start" | "sampled">[];
  /**
   * The history's fees of the blocks of the floor's hour from the floor up (oldest first), where it holds all of them:
   * with the blocks below the floor read here they make that hour's summary, which the history alone never holds whole.
   * Used when every block is read and the hour is not held (or held as a sample).
   */
  readonly floorHourFees?: readonly bigint[];
}

/** A run of wanted hours, `fromTime..toTime` (unix s, toTime excluded), read every block, newest first. */
interface HourRun {
  readonly fromTime: number;
  readonly toTime: number;
}

/**
 * The outlook backfill's pages (CONTRACT.md, "Outlook: wait or pay now"): the hours of `spanSeconds` before the
 * history's oldest hour that are not held, newest first. Every block (`every`): each run of wanted hours is read from a
 * block at or above its end (the block below the history's oldest, or one aimed with the anchors known) down, page
 * below page, until a block older than its start; one page an hour (`sampled`): a page aimed at the middle of each
 * hour from the nearest anchors, aimed again when it fell outside. Blocks are dated by interpolating between the exact
 * timestamps of each page's two ends, put in their hours, and an hour is summarised (summarizeHour) once no page to
 * come can add to it: `keep` returns those summaries, for the caller to write.
 */
export class OutlookBackfillWork implements BackfillWork {
  readonly anchors: BackfillAnchors;
  /** Hours wanted, newest first (their starts). */
  readonly hoursWanted: readonly number[];
  readonly fromTime: number;
  readonly toTime: number;
  readonly #options: OutlookBackfillWorkOptions;
  /** Every block: the runs of wanted hours left, newest first; the first is being read. */
  readonly #runs: HourRun[];
  /** Sampled: the hours left, newest first; the first is being read. */
  readonly #sampledHours: number[];
  #aims = 0;
  /** The blocks read of the current run, contiguous: `fromBlock..toBlock`. */
  #read: BlockRange | undefined;
  /** The fees of blocks at the edges of what was read (and the floor's): the seams the next page is judged at. */
  readonly #edgeFees = new Map<bigint, HeldFee>();
  /** Fees per hour of the run (or the sampled hour), by page: summarised when complete. */
  readonly #pending = new Map<number, { firstBlock: bigint; fees: bigint[] }[]>();
  #inFlight: BlockRange | undefined;
  #blocksFetched = 0;
  #pagesFetched = 0;
  #hoursDone = 0;
  /** Hours of the current run summarised so far. */
  #doneInRun = 0;

  constructor(options: OutlookBackfillWorkOptions) {
    if (!(options.spanSeconds > 0)) throw new RangeError(`an outlook backfill spans a positive duration (got ${options.spanSeconds} s)`);
    this.#options = options;
    this.anchors = new BackfillAnchors([...(options.anchors ?? []), options.floor]);
    this.toTime = hourStartOf(options.floor.timestamp);
    this.fromTime = this.toTime - Math.ceil(options.spanSeconds / HOUR_SECONDS) * HOUR_SECONDS;
    const held = new Map(options.heldHours.map((hour) => [hour.start, hour.sampled]));
    const wanted: number[] = [];
    for (let start = this.toTime - HOUR_SECONDS; start >= this.fromTime; start -= HOUR_SECONDS) {
      const sampled = held.get(start);
      if (sampled === undefined || (sampled && options.mode === "every")) wanted.push(start);
    }
    // Nothing lies before the genesis: a history that starts there leaves the outlook nothing to read.
    if (options.floor.block === 0n) wanted.length = 0;
    this.hoursWanted = Object.freeze(wanted);
    this.#sampledHours = options.mode === "sampled" ? [...wanted] : [];
    this.#runs = options.mode === "every" ? runsOf(wanted) : [];
    const floorHourHeld = held.get(this.toTime);
    if (options.mode === "every" && options.floor.block > 0n && (options.floorHourFees?.length ?? 0) > 0 && floorHourHeld !== false) {
      // The floor's hour too: its blocks below the floor are read first, the history's above it added.
      this.#pending.set(this.toTime, [{ firstBlock: options.floor.block, fees: [...options.floorHourFees!] }]);
      const newest = this.#runs[0];
      if (newest?.toTime === this.toTime) this.#runs[0] = { fromTime: newest.fromTime, toTime: this.toTime + HOUR_SECONDS };
      else this.#runs.unshift({ fromTime: this.toTime, toTime: this.toTime + HOUR_SECONDS });
    }
  }

  get mode(): "every" | "sampled" {
    return this.#options.mode;
  }

  get blocksFetched(): number {
    return this.#blocksFetched;
  }

  get pagesFetched(): number {
    return this.#pagesFetched;
  }

  get pagesInFlight(): number {
    return this.#inFlight === undefined ? 0 : 1;
  }

  get blocksInFlight(): number {
    return this.#inFlight === undefined ? 0 : blocksIn(this.#inFlight);
  }

  /** Wanted hours summarised (or found empty) so far. */
  get hoursDone(): number {
    return this.#hoursDone;
  }

  /** The fee a page's seam is judged against: the history's oldest block (from `floorFee`) and the edges of what was read. */
  heldFeeAt(block: bigint, floorFee: () => HeldFee | undefined): HeldFee | undefined {
    if (block === this.#options.floor.block) return floorFee();
    return this.#edgeFees.get(block);
  }

  plan(): { floorBlock: bigint; missing: readonly BlockRange[]; blocksToGo: number; complete: boolean } {
    const floorBlock = this.#estimateBlockAt(this.fromTime);
    const complete = this.#runs.length === 0 && this.#sampledHours.length === 0;
    const hoursLeft = this.hoursWanted.length - this.#hoursDone;
    const blocksToGo = this.mode === "sampled" ? hoursLeft * this.#options.pageBlocks : Math.ceil((hoursLeft * HOUR_SECONDS) / this.#spacingSeconds());
    const top = this.#read?.fromBlock ?? this.#options.floor.block;
    return { floorBlock, missing: complete ? [] : [{ fromBlock: floorBlock < top ? floorBlock : top, toBlock: top }], blocksToGo, complete };
  }

  take(maxBlocks: number): BlockRange | undefined {
    const blocks = BigInt(Math.max(1, Math.min(maxBlocks, this.#options.pageBlocks)));
    const range = this.mode === "sampled" ? this.#takeSample(blocks) : this.#takeEvery(blocks);
    this.#inFlight = range;
    return range;
  }

  complete(taken: BlockRange, page: BackfillPage): void {
    if (this.#inFlight !== taken) throw new RangeError(`page ${taken.fromBlock}..${taken.toBlock} is not the outlook's page in flight`);
    this.#inFlight = undefined;
    this.#pagesFetched++;
    this.#blocksFetched += page.baseFeesWei.length;
  }

  release(taken: BlockRange): void {
    if (this.#inFlight === taken) this.#inFlight = undefined;
  }

  /**
   * A page kept (before `complete`): its blocks dated and put in their hours; returns the hours now complete, newest
   * first. A page without anchors (a seam block the history holds wrongly, corrected) is not the outlook's.
   */
  keep(page: BackfillPage, source: string): HourlySummary[] {
    if (page.anchors.length === 0 || page.baseFeesWei.length === 0) return [];
    for (const anchor of page.anchors) if (this.anchors.conflictWith(anchor) === undefined) this.anchors.add(anchor);
    const toBlock = page.firstBlock + BigInt(page.baseFeesWei.length) - 1n;
    const timeOf = interpolation(page.anchors);
    if (this.mode === "sampled") return this.#keepSample(page, timeOf);
    const run = this.#runs[0];
    if (run === undefined) return [];
    this.#read = this.#read === undefined ? { fromBlock: page.firstBlock, toBlock } : joined(this.#read, page.firstBlock, toBlock);
    this.#edgeFees.set(page.firstBlock, { baseFeeWei: page.baseFeesWei[0]!, source });
    this.#edgeFees.set(toBlock, { baseFeeWei: page.baseFeesWei[page.baseFeesWei.length - 1]!, source });
    this.#bucket(page, timeOf, run.fromTime, run.toTime);
    if (!this.#topCovered(run)) return [];
    const oldestTime = this.#timeOf(this.#read.fromBlock, timeOf);
    // Blocks below the oldest read are dated no later than it: the hours after it are complete.
    const done = this.#flush((start) => start > oldestTime);
    const wantedDone = this.#wantedAmong(done);
    this.#doneInRun += wantedDone;
    if (oldestTime < run.fromTime || this.#read.fromBlock === 0n) {
      // The run's hours are done: summarised, or without a block (missing, never invented).
      this.#hoursDone += this.#wantedHoursOf(run) - this.#doneInRun + wantedDone;
      done.push(...this.#flush(() => true));
      this.#doneInRun = 0;
      this.#runs.shift();
      this.#read = undefined;
      this.#edgeFees.clear();
      return done;
    }
    this.#hoursDone += wantedDone;
    return done;
  }

  /** The summaries among `done` of hours wanted (the floor's hour is an extra, not one of them). */
  #wantedAmong(done: readonly HourlySummary[]): number {
    return done.filter((summary) => summary.start < this.toTime).length;
  }

  /** The hours of `run` that are wanted (before the floor's hour). */
  #wantedHoursOf(run: HourRun): number {
    return (Math.min(run.toTime, this.toTime) - run.fromTime) / HOUR_SECONDS;
  }

  #takeEvery(blocks: bigint): BlockRange | undefined {
    const run = this.#runs[0];
    if (run === undefined) return undefined;
    const floorBelow = this.#options.floor.block - 1n;
    if (floorBelow < 0n) return undefined;
    if (this.#read === undefined) {
      // The newest run starts right below the history; another one at a block aimed a little above its end.
      const aimed = run.toTime >= this.toTime ? floorBelow : this.#estimateBlockAt(run.toTime) + blocks / 4n;
      const toBlock = aimed < floorBelow ? aimed : floorBelow;
      return { fromBlock: toBlock - blocks + 1n > 0n ? toBlock - blocks + 1n : 0n, toBlock };
    }
    if (!this.#topCovered(run)) {
      // The first page fell short of the run's end: the blocks right above what was read.
      const fromBlock = this.#read.toBlock + 1n;
      const toBlock = fromBlock + blocks - 1n < floorBelow ? fromBlock + blocks - 1n : floorBelow;
      return { fromBlock, toBlock };
    }
    const toBlock = this.#read.fromBlock - 1n;
    if (toBlock < 0n) return undefined;
    return { fromBlock: toBlock - blocks + 1n > 0n ? toBlock - blocks + 1n : 0n, toBlock };
  }

  #takeSample(blocks: bigint): BlockRange | undefined {
    const start = this.#sampledHours[0];
    if (start === undefined) return undefined;
    const floorBelow = this.#options.floor.block - 1n;
    const middle = this.#estimateBlockAt(start + HOUR_SECONDS / 2);
    let toBlock = middle + blocks / 2n;
    if (toBlock > floorBelow) toBlock = floorBelow;
    if (toBlock < 0n) return undefined;
    return { fromBlock: toBlock - blocks + 1n > 0n ? toBlock - blocks + 1n : 0n, toBlock };
  }

  #keepSample(page: BackfillPage, timeOf: (block: bigint) => number): HourlySummary[] {
    const start = this.#sampledHours[0];
    if (start === undefined) return [];
    this.#bucket(page, timeOf, start, start + HOUR_SECONDS);
    const done = this.#flush(() => true);
    this.#aims++;
    if (done.length === 0 && page.firstBlock === 0n && timeOf(0n) >= start + HOUR_SECONDS) {
      // The chain starts after this hour: it and every older one have no block.
      this.#hoursDone += this.#sampledHours.length;
      this.#sampledHours.length = 0;
      return done;
    }
    if (done.length > 0 || this.#aims >= MAX_AIMS_PER_HOUR) {
      this.#sampledHours.shift();
      this.#aims = 0;
      this.#hoursDone++;
    }
    return done;
  }

  /** Whether what was read of `run` reaches its end (a block dated at or after it, or the block below the history). */
  #topCovered(run: HourRun): boolean {
    const read = this.#read;
    if (read === undefined) return false;
    if (read.toBlock === this.#options.floor.block - 1n) return true;
    return this.#timeOf(read.toBlock) >= run.toTime;
  }

  /** Puts the page's blocks dated in `fromTime..toTime` in their hours. */
  #bucket(page: BackfillPage, timeOf: (block: bigint) => number, fromTime: number, toTime: number): void {
    let chunkHour: number | undefined;
    let chunk: { firstBlock: bigint; fees: bigint[] } | undefined;
    page.baseFeesWei.forEach((fee, i) => {
      const block = page.firstBlock + BigInt(i);
      const time = timeOf(block);
      if (time < fromTime || time >= toTime) return;
      const hour = hourStartOf(time);
      if (hour !== chunkHour || chunk === undefined) {
        chunk = { firstBlock: block, fees: [] };
        chunkHour = hour;
        const chunks = this.#pending.get(hour) ?? [];
        chunks.push(chunk);
        this.#pending.set(hour, chunks);
      }
      chunk.fees.push(fee);
    });
  }

  /** The pending hours that `complete` says are, summarised newest first and forgotten. */
  #flush(complete: (start: number) => boolean): HourlySummary[] {
    const sampled = this.mode === "sampled";
    const done: HourlySummary[] = [];
    for (const start of [...this.#pending.keys()].sort((a, b) => b - a)) {
      if (!complete(start)) continue;
      const chunks = this.#pending.get(start)!.sort((a, b) => (a.firstBlock < b.firstBlock ? -1 : 1));
      this.#pending.delete(start);
      done.push(
        summarizeHour(
          start,
          chunks.flatMap((chunk) => chunk.fees),
          sampled,
        ),
      );
    }
    return done;
  }

  /** A block's time: exact where anchored, else between the nearest anchors (or `fallback`, the page's own). */
  #timeOf(block: bigint, fallback?: (block: bigint) => number): number {
    const all = this.anchors.all;
    const exact = all.find((anchor) => anchor.block === block);
    if (exact) return exact.timestamp;
    if (fallback) return fallback(block);
    const newer = all.find((anchor) => anchor.block > block);
    const older = [...all].reverse().find((anchor) => anchor.block < block);
    if (older && newer) return interpolation([older, newer])(block);
    const from = newer ?? older!;
    return from.timestamp + Number(block - from.block) * this.#spacingSeconds();
  }

  /** The block dated about `seconds`: between the anchors around it, else from the nearest one at the chain's spacing. */
  #estimateBlockAt(seconds: number): bigint {
    const all = this.anchors.all;
    const older = this.anchors.newestBefore(seconds);
    const newer = all.find((anchor) => anchor.timestamp >= seconds);
    if (older && newer && newer.block > older.block) {
      const share = (seconds - older.timestamp) / Math.max(1, newer.timestamp - older.timestamp);
      return older.block + BigInt(Math.round(share * Number(newer.block - older.block)));
    }
    const from = newer ?? older ?? this.#options.floor;
    const estimate = from.block + BigInt(Math.round((seconds - from.timestamp) / this.#spacingSeconds()));
    return estimate > 0n ? estimate : 0n;
  }

  /** Seconds per block: over the anchors known when they span enough blocks, else as configured. */
  #spacingSeconds(): number {
    const all = this.anchors.all;
    const oldest = all[0];
    const newest = all[all.length - 1];
    if (oldest && newest && newest.block - oldest.block >= 16n && newest.timestamp > oldest.timestamp)
      return (newest.timestamp - oldest.timestamp) / Number(newest.block - oldest.block);
    return this.#options.blockSpacingSeconds;
  }
}

/** Consecutive hours (starts, newest first) as runs. */
function runsOf(startsNewestFirst: readonly number[]): HourRun[] {
  const runs: HourRun[] = [];
  for (const start of startsNewestFirst) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last.fromTime === start + HOUR_SECONDS) runs[runs.length - 1] = { fromTime: start, toTime: last.toTime };
    else runs.push({ fromTime: start, toTime: start + HOUR_SECONDS });
  }
  return runs;
}

/** `read` with a page next to it (below or above). */
function joined(read: BlockRange, fromBlock: bigint, toBlock: bigint): BlockRange {
  return { fromBlock: fromBlock < read.fromBlock ? fromBlock : read.fromBlock, toBlock: toBlock > read.toBlock ? toBlock : read.toBlock };
}

/** A page's blocks dated between its two anchors (whole seconds, rounded down, as the history dates its blocks). */
function interpolation(anchors: readonly BlockAnchor[]): (block: bigint) => number {
  const first = anchors[0]!;
  const last = anchors[anchors.length - 1]!;
  if (last.block === first.block) return () => first.timestamp;
  const span = Number(last.block - first.block);
  return (block) => first.timestamp + Math.floor(((last.timestamp - first.timestamp) * Number(block - first.block)) / span);
}
