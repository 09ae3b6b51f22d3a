import { nearestRankIndex } from "../fees/percentile.ts";
import type { BlockColumns, FeeSeries } from "./blockColumns.ts";
import type { WindowSpec } from "./duration.ts";
import { FeeMultiset } from "../fees/feeMultiset.ts";
import { FeeOrderStatisticsScratch } from "./feeOrderStatistics.ts";
import { firstFeeBetween, heldFeesBetween } from "./heldFees.ts";
import type { WindowPercentile } from "./historyView.ts";
import { checkWindowSpec, windowKey, windowStartBlock } from "./windowStart.ts";
import { WindowTracker } from "./windowTracker.ts";

/**
 * Windows tracked at once besides the statistics window. Each holds its window's fees (16 bytes a block, measured: a
 * week of 0.25 s blocks is 37 MB), so the count is bounded; a window asked for past it is answered by one pass over
 * its blocks instead (see `percentileOver`).
 */
export const MAX_ASKED_WINDOWS = 16;

/**
 * A window not asked for during this many writes of the history is dropped, freeing its fees (and the blocks that
 * pruning kept for it). Readers ask once per publication, and the service publishes after every write (a new head, a
 * backfilled page), so a window still in use is asked for at every write; 256 writes are at least a minute of 0.25 s
 * blocks and most of an hour of 12 s blocks, long enough that a reader that skips a few publications keeps its window.
 */
export const IDLE_WRITES = 256;

interface AskedWindow {
  readonly spec: WindowSpec;
  readonly tracker: WindowTracker;
  /** The count of writes when it was last asked for. */
  askedAtWrite: number;
}

/**
 * The windows of one chain's history that are kept up to date block by block: the statistics window, always, and
 * each window a reader asked a percentile of (an alert's "24 h p20"), from its first ask until it goes unasked for
 * IDLE_WRITES writes. All end at the newest block and read the same BlockColumns; after each write of the history,
 * every tracker takes the fee changes (re-mined blocks, gaps filled) and moves to its window's new range.
 */
export class TrackedWindows {
  readonly #columns: BlockColumns;
  readonly #statisticsSpec: WindowSpec;
  readonly #statisticsKey: string;
  readonly #statistics: WindowTracker;
  /** The statistics window's blob base fees (the same blocks; those without a blob fee not counted). */
  readonly #statisticsBlob: WindowTracker;
  /** By series and windowKey, in the order first asked. */
  readonly #asked = new Map<string, AskedWindow>();
  #writes = 0;

  readonly #horizonSeconds: number;

  constructor(columns: BlockColumns, statisticsWindow: WindowSpec, horizonSeconds: number) {
    this.#columns = columns;
    this.#horizonSeconds = horizonSeconds;
    this.#statisticsSpec = statisticsWindow;
    this.#statisticsKey = windowKey(statisticsWindow);
    this.#statistics = new WindowTracker(columns);
    this.#statisticsBlob = new WindowTracker(columns, new FeeMultiset(), "blob");
  }

  /** The statistics window's tracker. */
  get statistics(): WindowTracker {
    return this.#statistics;
  }

  /** The statistics window's tracker of blob base fees. */
  get statisticsBlob(): WindowTracker {
    return this.#statisticsBlob;
  }

  /** The windows asked for that are tracked now, in the order first asked (the statistics window not among them). */
  get askedWindows(): WindowSpec[] {
    return [...this.#asked.values()].map((asked) => asked.spec);
  }

  /**
   * The oldest block any tracked window begins at (undefined while nothing is held): pruning keeps every block from
   * there, so that no tracked window loses blocks it holds.
   */
  get keepFromBlock(): number | undefined {
    if (this.#columns.newestBlock === undefined) return undefined;
    let keepFrom = this.#statistics.fromBlock;
    for (const asked of this.#asked.values()) keepFrom = Math.min(keepFrom, asked.tracker.fromBlock);
    return keepFrom;
  }

  /**
   * A held block's fee of `series` was written (`old` null: the block had none before); each window of that series
   * covering it takes it.
   */
  feeChanged(block: number, old: bigint | null, fee: bigint, series: FeeSeries = "base"): void {
    (series === "base" ? this.#statistics : this.#statisticsBlob).feeChanged(block, old, fee);
    for (const asked of this.#asked.values()) if (asked.tracker.series === series) asked.tracker.feeChanged(block, old, fee);
  }

  /** After a write of the history: drops the windows gone unasked for IDLE_WRITES writes, and moves the others. */
  afterWrite(): void {
    this.#writes++;
    for (const [key, asked] of this.#asked) {
      if (this.#writes - asked.askedAtWrite >= IDLE_WRITES) this.#asked.delete(key);
    }
    this.#move(this.#statistics, this.#statisticsSpec);
    this.#move(this.#statisticsBlob, this.#statisticsSpec);
    for (const asked of this.#asked.values()) this.#move(asked.tracker, asked.spec);
  }

  /**
   * The nearest-rank `percentile` of the held blocks' fees in `window` (HistoryView.percentileOver). The statistics
   * window's own spec is answered from its tracker. Another window's first ask builds its tracker (one sort of its
   * fees: about 100 ms for a week of 0.25 s blocks); later asks read it (microseconds). Past MAX_ASKED_WINDOWS tracked
   * windows, a new one is answered by one pass over its blocks (about 80 ms for that week) without being kept.
   * Evicting the least recently asked instead would, with more windows than that asked in turn at every block (as
   * alerts ask), evict each one just before its next ask and rebuild every window at every ask; this way only the
   * windows past the bound pay, and memory stays bounded.
   */
  percentileOver(window: WindowSpec, percentile: number, series: FeeSeries = "base"): WindowPercentile | undefined {
    nearestRankIndex(1, percentile);
    checkWindowSpec(window);
    if (this.#columns.newestBlock === undefined) return undefined;
    const tracker = this.#trackerOf(window, series);
    if (tracker === undefined) return this.#percentileUntracked(window, percentile, series);
    const fees = tracker.fees;
    if (fees.size === 0) return undefined;
    return {
      wei: fees.at(nearestRankIndex(fees.size, percentile)),
      blocks: fees.size,
      fromBlock: BigInt(tracker.firstHeldBlock),
      toBlock: BigInt(tracker.toBlock),
    };
  }

  /** The tracker that answers for `window`, made on its first ask; undefined past MAX_ASKED_WINDOWS. */
  #trackerOf(window: WindowSpec, series: FeeSeries): WindowTracker | undefined {
    const key = `${series}:${windowKey(window)}`;
    if (windowKey(window) === this.#statisticsKey) return series === "base" ? this.#statistics : this.#statisticsBlob;
    let asked = this.#asked.get(key);
    if (asked === undefined) {
      if (this.#asked.size >= MAX_ASKED_WINDOWS) return undefined;
      asked = { spec: window, tracker: new WindowTracker(this.#columns, new FeeMultiset(), series), askedAtWrite: this.#writes };
      this.#move(asked.tracker, window);
      this.#asked.set(key, asked);
    }
    asked.askedAtWrite = this.#writes;
    return asked.tracker;
  }

  #percentileUntracked(window: WindowSpec, percentile: number, series: FeeSeries): WindowPercentile | undefined {
    const fromBlock = windowStartBlock(this.#columns, window, this.#horizonSeconds);
    const toBlock = this.#columns.newestBlock;
    if (fromBlock === undefined || toBlock === undefined) return undefined;
    const fees = heldFeesBetween(this.#columns, fromBlock, toBlock, series);
    if (fees.length === 0) return undefined;
    const [wei] = new FeeOrderStatisticsScratch([percentile]).of(fees).percentilesWei;
    return {
      wei: wei!,
      blocks: fees.length,
      fromBlock: BigInt(firstFeeBetween(this.#columns, fromBlock, toBlock, series) ?? fromBlock),
      toBlock: BigInt(toBlock),
    };
  }

  /** Moves `tracker` to its window's range as of the newest block. */
  #move(tracker: WindowTracker, window: WindowSpec): void {
    const from = windowStartBlock(this.#columns, window, this.#horizonSeconds);
    const newest = this.#columns.newestBlock;
    if (from !== undefined && newest !== undefined) tracker.moveTo(from, newest);
  }
}
