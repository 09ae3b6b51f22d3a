import { congestionFromRanks } from "../fees/networkCongestion.ts";
import type { FeeMultiset } from "../fees/feeMultiset.ts";
import { nearestRankIndex } from "../fees/percentile.ts";
import type { BlockAnchor } from "./blockAnchor.ts";
import { BlockColumns, type FeeSeries, HISTORY_CHUNK_BLOCKS, UNKNOWN_BLOB_FEE, TIME_CLOCK, TIME_EXACT, TIME_INTERPOLATED } from "./blockColumns.ts";
import type { BlockRun } from "./blockRun.ts";
import type { WindowSpec } from "./duration.ts";
import type { HeldBlock, HistoryView, WindowPercentile } from "./historyView.ts";
import { TrackedWindows } from "./trackedWindows.ts";
import type { WindowTracker } from "./windowTracker.ts";

export type { BlockAnchor } from "./blockAnchor.ts";

/** Consecutive blocks' base fees from `firstBlock`, with any exact timestamps seen among them. */
export interface HistoryWrite {
  readonly firstBlock: bigint;
  readonly baseFeesWei: readonly bigint[] | BigUint64Array;
  readonly anchors?: readonly BlockAnchor[];
  /**
   * Per block where the RPC gave them (each as long as `baseFeesWei`): gas-used ratios (NaN: not known), blob base fees
   * (wei, below 2^63; UNKNOWN_BLOB_FEE, -1, where not known, as the store gives them back), blob gas used ratios.
   */
  readonly gasUsedRatios?: ArrayLike<number> | undefined;
  readonly blobBaseFeesWei?: readonly bigint[] | BigInt64Array | BigUint64Array | undefined;
  readonly blobGasUsedRatios?: ArrayLike<number> | undefined;
}

/** The statistics window's blob base fees: the same blocks as the base fees', counting those that have one. */
export interface BlobWindowStats {
  readonly blocks: number;
  /** The window's first block with a blob base fee, and its newest block. */
  readonly fromBlock: bigint;
  readonly toBlock: bigint;
  readonly percentileWei: bigint;
  readonly busyThresholdWei: bigint;
  readonly minWei: bigint;
  readonly maxWei: bigint;
}

/** What a write changed: the blocks whose fee was new or different, and the anchors kept (for the store). */
export interface HistoryChange {
  /** The oldest and newest block whose fee was new or different; undefined when none was. */
  readonly changedFrom: bigint | undefined;
  readonly changedTo: bigint | undefined;
  /** The anchors the history accepted (those contradicting held anchors are dropped). */
  readonly anchors: readonly BlockAnchor[];
}

/** The statistics window at one moment: which blocks, and their order statistics. */
export interface WindowStats {
  readonly blocks: number;
  readonly fromBlock: bigint;
  readonly toBlock: bigint;
  readonly baseFeePercentileWei: bigint;
  readonly busyThresholdWei: bigint;
  readonly minWei: bigint;
  readonly maxWei: bigint;
  /** Where `baseFeeWei` stands among the window's fees, 0..1 (mid-rank, 4 decimals): networkCongestion. */
  congestionOf(baseFeeWei: bigint): number;
}

export interface ChainHistoryOptions {
  readonly window: WindowSpec;
  /** How far back blocks are kept, in seconds. */
  readonly horizonSeconds: number;
  /** The chain's block time as configured, until anchors teach the real spacing. */
  readonly blockTimeMs: number;
}

/** How far to look for a neighbouring anchor before extrapolating instead. */
const ANCHOR_SEARCH_BLOCKS = 4 * HISTORY_CHUNK_BLOCKS;
/** Anchors at least this far apart teach the chain's block spacing. */
const SPACING_SAMPLE_BLOCKS = 16;
const ANCHOR_KINDS = [TIME_EXACT, TIME_CLOCK] as const;

/**
 * One chain's held history in memory: every block's base fee and timestamp for the horizon, the order statistics of
 * the statistics window and of each window readers ask percentiles of (TrackedWindows) kept up to date as blocks
 * arrive, and the live view readers get (HistoryView). Timestamps are exact at anchors and interpolated between them
 * (extrapolated at the ends with the chain's spacing); while no header has been seen, the newest block's arrival on
 * the local clock stands in for one.
 */
export class ChainHistory implements HistoryView {
  readonly #columns = new BlockColumns();
  readonly #windows: TrackedWindows;
  readonly #horizonSeconds: number;
  #spacingSeconds: number;
  /** Blocks timed by the clock (no header seen near them): demoted once a header's exact time is seen. */
  #clockAnchors: number[] = [];

  constructor(options: ChainHistoryOptions) {
    this.#horizonSeconds = options.horizonSeconds;
    this.#spacingSeconds = options.blockTimeMs / 1_000;
    this.#windows = new TrackedWindows(this.#columns, options.window, options.horizonSeconds);
  }

  get blocksHeld(): number {
    return this.#columns.blocksHeld;
  }

  get oldest(): HeldBlock | undefined {
    return this.#heldBlock(this.#columns.oldestBlock);
  }

  get newest(): HeldBlock | undefined {
    return this.#heldBlock(this.#columns.newestBlock);
  }

  /** The chain's block spacing in seconds, as anchors measured it (the configured block time until then). */
  get spacingSeconds(): number {
    return this.#spacingSeconds;
  }

  runs(fromSeconds: number, toSeconds: number): Iterable<BlockRun> {
    const from = this.#columns.firstAtOrAfter(fromSeconds);
    const newest = this.#columns.newestBlock;
    if (from === undefined || newest === undefined || toSeconds < fromSeconds) return [];
    const afterTo = this.#columns.firstAfter(toSeconds);
    return this.#columns.runsBetween(from, afterTo === undefined ? newest : afterTo - 1);
  }

  /** The held blocks in [fromBlock, toBlock] as runs (views). */
  runsBetweenBlocks(fromBlock: bigint, toBlock: bigint): Iterable<BlockRun> {
    return this.#columns.runsBetween(Number(fromBlock), Number(toBlock));
  }

  /** The held stretches of consecutive blocks, oldest first. */
  heldRanges(): { fromBlock: bigint; toBlock: bigint }[] {
    return this.#columns.heldRanges().map((range) => ({ fromBlock: BigInt(range.fromBlock), toBlock: BigInt(range.toBlock) }));
  }

  /**
   * The exact timestamps at the ends of what is held: the newest one (at or near the head: where a backfill starts)
   * and the nearest ones to each held stretch's ends (they tell a backfill where the horizon lies).
   */
  edgeAnchors(): { newest: BlockAnchor | undefined; all: BlockAnchor[] } {
    const anchorAt = (block: number | undefined): BlockAnchor | undefined =>
      block === undefined ? undefined : { block: BigInt(block), timestamp: this.#columns.timestampAt(block) };
    const newestBlock = this.#columns.newestBlock;
    const newest = newestBlock === undefined ? undefined : anchorAt(this.#columns.findBack(newestBlock, [TIME_EXACT], ANCHOR_SEARCH_BLOCKS));
    const all = new Map<bigint, BlockAnchor>();
    for (const range of this.#columns.heldRanges()) {
      for (const anchor of [
        anchorAt(this.#columns.findForward(range.fromBlock, [TIME_EXACT], Math.min(ANCHOR_SEARCH_BLOCKS, range.toBlock - range.fromBlock))),
        anchorAt(this.#columns.findBack(range.toBlock, [TIME_EXACT], Math.min(ANCHOR_SEARCH_BLOCKS, range.toBlock - range.fromBlock))),
      ]) {
        if (anchor) all.set(anchor.block, anchor);
      }
    }
    return { newest, all: [...all.values()].sort((a, b) => (a.block < b.block ? -1 : 1)) };
  }

  /** A held block's base fee; undefined when not held. */
  baseFeeAt(block: bigint): bigint | undefined {
    return this.#columns.baseFeeAt(Number(block));
  }

  /** A held block's blob base fee; undefined when not held or not known. */
  blobBaseFeeAt(block: bigint): bigint | undefined {
    return this.#columns.blobBaseFeeAt(Number(block));
  }

  /**
   * The newest `count` blocks' blob base fees, oldest first, back to the first gap or block without one: the blob
   * history endpoint's array ([] when the newest block has none).
   */
  newestBlobFees(count: number): bigint[] {
    const newest = this.#columns.newestBlock;
    if (newest === undefined) return [];
    const fees: bigint[] = [];
    for (let block = newest; block > newest - count; block--) {
      const fee = this.#columns.blobBaseFeeAt(block);
      if (fee === undefined) break;
      fees.push(fee);
    }
    return fees.reverse();
  }

  /** The blob gas used ratios (0..1, undefined where not known) of the `count` blocks ending at `newestBlock`, oldest first. */
  blobGasUsedRatiosTo(newestBlock: bigint, count: number): (number | undefined)[] {
    const newest = Number(newestBlock);
    return Array.from({ length: count }, (_, i) => this.#columns.blobGasUsedRatioAt(newest - count + 1 + i));
  }

  /** The newest `count` blocks' fees, oldest first, back to the first gap: the history endpoint's array. */
  newestFees(count: number): bigint[] {
    const newest = this.#columns.newestBlock;
    if (newest === undefined) return [];
    const fees: bigint[] = [];
    for (let block = newest; block > newest - count; block--) {
      const fee = this.#columns.baseFeeAt(block);
      if (fee === undefined) break;
      fees.push(fee);
    }
    return fees.reverse();
  }

  /**
   * Writes consecutive blocks (new, or re-mined: a different fee replaces the old one) and their anchors, retimes
   * the blocks around them, moves the tracked windows (the statistics window and those asked for) and drops whole
   * chunks beyond the horizon that no tracked window holds.
   * `clockSeconds` stands in for the newest block's timestamp while the history holds no exact one.
   */
  write(write: HistoryWrite, clockSeconds: number): HistoryChange {
    const first = Number(write.firstBlock);
    const count = write.baseFeesWei.length;
    if (!Number.isSafeInteger(first) || first < 0 || first + count > Number.MAX_SAFE_INTEGER) {
      throw new RangeError(`block numbers are whole numbers below 2^53 (got ${write.firstBlock})`);
    }
    checkExtras(write, count);
    let changedFrom: number | undefined;
    let changedTo: number | undefined;
    const { gasUsedRatios, blobBaseFeesWei, blobGasUsedRatios } = write;
    const withExtras = gasUsedRatios !== undefined || blobBaseFeesWei !== undefined;
    for (let i = 0; i < count; i++) {
      const fee = write.baseFeesWei[i]!;
      if (fee < 0n || fee >= 2n ** 63n) throw new RangeError(`a base fee is at least 0 and below 2^63 wei (got ${fee})`);
      const old = this.#columns.setBaseFee(first + i, fee);
      let changed = old !== undefined;
      if (old !== undefined) this.#windows.feeChanged(first + i, old, fee);
      if (withExtras) {
        const given = blobBaseFeesWei?.[i];
        const blobFee = given === undefined || given === UNKNOWN_BLOB_FEE ? undefined : given;
        const oldBlob = this.#columns.setExtras(first + i, {
          gasUsedRatio: gasUsedRatios?.[i],
          blobBaseFeeWei: blobFee,
          blobGasUsedRatio: blobGasUsedRatios?.[i],
        });
        if (oldBlob !== undefined) {
          this.#windows.feeChanged(first + i, oldBlob, blobFee!, "blob");
          changed = true;
        }
      }
      if (!changed) continue;
      changedFrom ??= first + i;
      changedTo = first + i;
    }
    const anchors = this.#acceptAnchors(write.anchors ?? []);
    if (anchors.length > 0 && this.#clockAnchors.length > 0) {
      // The clock only stood in for headers: with a header's exact time held, it gives way to interpolation.
      for (const block of this.#clockAnchors) this.#columns.setTime(block, this.#columns.timestampAt(block), TIME_INTERPOLATED);
      this.#clockAnchors = [];
      this.#retime(this.#columns.oldestBlock!, first + count - 1, anchors, clockSeconds);
    }
    if (count > 0 || anchors.length > 0) this.#retime(first, first + count - 1, anchors, clockSeconds);
    this.#windows.afterWrite();
    this.#prune();
    return {
      changedFrom: changedFrom === undefined ? undefined : BigInt(changedFrom),
      changedTo: changedTo === undefined ? undefined : BigInt(changedTo),
      anchors,
    };
  }

  /** The statistics window's blocks and order statistics; undefined while nothing is held. */
  windowStats(): WindowStats | undefined {
    const window = this.#windows.statistics;
    const stats = orderStatsOf(window);
    if (stats === undefined) return undefined;
    const { percentileWei, fees, ...shared } = stats;
    const n = shared.blocks;
    return {
      ...shared,
      baseFeePercentileWei: percentileWei,
      congestionOf: (baseFeeWei) => congestionFromRanks(fees.countBelow(baseFeeWei), fees.countAtMost(baseFeeWei), n),
    };
  }

  /** The statistics window's blob base fee statistics; undefined while no block of the window has a blob base fee. */
  blobWindowStats(): BlobWindowStats | undefined {
    const stats = orderStatsOf(this.#windows.statisticsBlob);
    if (stats === undefined) return undefined;
    const { fees: _fees, ...blobStats } = stats;
    return blobStats;
  }

  percentileOver(window: WindowSpec, percentile: number, series: FeeSeries = "base"): WindowPercentile | undefined {
    return this.#windows.percentileOver(window, percentile, series);
  }

  /** The windows asked for by percentileOver that are kept up to date now, in the order first asked. */
  get trackedWindows(): WindowSpec[] {
    return this.#windows.askedWindows;
  }

  #heldBlock(block: number | undefined): HeldBlock | undefined {
    return block === undefined ? undefined : { block: BigInt(block), timestamp: this.#columns.timestampAt(block) };
  }

  /**
   * The anchors of held blocks that agree with each other and with the exact times held around them (never
   * decreasing with the block number); sets their times. Checked as one batch: linear in the anchors given.
   */
  #acceptAnchors(anchors: readonly BlockAnchor[]): BlockAnchor[] {
    const candidates = anchors
      .filter((anchor) => Number.isSafeInteger(Number(anchor.block)) && Number.isFinite(anchor.timestamp) && this.#columns.has(Number(anchor.block)))
      .sort((a, b) => (a.block < b.block ? -1 : a.block > b.block ? 1 : 0));
    if (candidates.length === 0) return [];
    const firstBlock = Number(candidates[0]!.block);
    const lastBlock = Number(candidates.at(-1)!.block);
    const before = this.#columns.findBack(firstBlock - 1, [TIME_EXACT], ANCHOR_SEARCH_BLOCKS);
    const after = this.#columns.findForward(lastBlock + 1, [TIME_EXACT], ANCHOR_SEARCH_BLOCKS);
    let floorTime = before === undefined ? Number.NEGATIVE_INFINITY : this.#columns.timestampAt(before);
    const ceilingTime = after === undefined ? Number.POSITIVE_INFINITY : this.#columns.timestampAt(after);
    const accepted: BlockAnchor[] = [];
    for (const anchor of candidates) {
      if (anchor.timestamp < floorTime || anchor.timestamp > ceilingTime) continue;
      if (accepted.length > 0 && accepted.at(-1)!.block === anchor.block) continue;
      floorTime = anchor.timestamp;
      this.#columns.setTime(Number(anchor.block), anchor.timestamp, TIME_EXACT);
      accepted.push(anchor);
    }
    // Anchors at the head teach the chain's spacing, once far enough apart to average out jitter.
    const last = accepted.at(-1);
    if (last !== undefined && after === undefined) {
      const reference = before ?? Number(accepted[0]!.block);
      const distance = Number(last.block) - reference;
      const spacing = (last.timestamp - this.#columns.timestampAt(reference)) / distance;
      if (distance >= SPACING_SAMPLE_BLOCKS && spacing > 0) this.#spacingSeconds = spacing;
    }
    return accepted;
  }

  /**
   * Sets the timestamps of the held blocks from the anchor below `from` to the anchor above `to` (or the ends):
   * linear between anchors, the spacing beyond them. Without any anchor, the newest block gets the clock's time.
   */
  #retime(from: number, to: number, anchors: readonly BlockAnchor[], clockSeconds: number): void {
    const newest = this.#columns.newestBlock!;
    let low = Math.min(from, ...anchors.map((anchor) => Number(anchor.block)));
    let high = Math.max(to, ...anchors.map((anchor) => Number(anchor.block)));
    // Blocks beyond the nearest anchors keep their times: only what lies between those anchors can change.
    low = this.#columns.findBack(low - 1, ANCHOR_KINDS, ANCHOR_SEARCH_BLOCKS) ?? low;
    high = this.#columns.findForward(high + 1, ANCHOR_KINDS, ANCHOR_SEARCH_BLOCKS) ?? high;
    let firstAnchor = this.#columns.findForward(low, ANCHOR_KINDS, high - low);
    if (firstAnchor === undefined) {
      // No anchor near: the clock stands in for the newest block's header until one is seen.
      this.#columns.setTime(newest, clockSeconds, TIME_CLOCK);
      this.#clockAnchors.push(newest);
      firstAnchor = newest;
      high = newest;
    }
    // Before the first anchor: back from it at the chain's spacing.
    const firstTime = this.#columns.timestampAt(firstAnchor);
    for (let block = low; block < firstAnchor; block++) {
      this.#columns.setTime(block, firstTime - (firstAnchor - block) * this.#spacingSeconds, TIME_INTERPOLATED);
    }
    // Between anchors: linear; after the last: forward at the chain's spacing.
    let previous = firstAnchor;
    for (;;) {
      const next = previous >= high ? undefined : this.#columns.findForward(previous + 1, ANCHOR_KINDS, high - previous);
      const previousTime = this.#columns.timestampAt(previous);
      const end = next ?? high;
      const step = next === undefined ? this.#spacingSeconds : (this.#columns.timestampAt(next) - previousTime) / (next - previous);
      for (let block = previous + 1; block <= end - (next === undefined ? 0 : 1); block++) {
        this.#columns.setTime(block, previousTime + (block - previous) * step, TIME_INTERPOLATED);
      }
      if (next === undefined) break;
      previous = next;
    }
  }

  /** Drops whole chunks older than the horizon (measured from the newest block's time) that no tracked window holds. */
  #prune(): void {
    const newest = this.#columns.newestBlock;
    if (newest === undefined) return;
    const cutoff = this.#columns.timestampAt(newest) - this.#horizonSeconds;
    const firstKept = this.#columns.firstAtOrAfter(cutoff);
    if (firstKept === undefined || firstKept <= (this.#columns.oldestBlock ?? firstKept)) return;
    const keepFrom = Math.min(firstKept, this.#windows.keepFromBlock ?? firstKept);
    this.#columns.dropChunksBelow(keepFrom - (keepFrom % HISTORY_CHUNK_BLOCKS));
  }
}

/** Refuses a write whose per-block extras do not match its blocks, or hold a value the history cannot keep: before anything is written. */
function checkExtras(write: HistoryWrite, count: number): void {
  for (const [name, values] of [
    ["gas-used ratios", write.gasUsedRatios],
    ["blob base fees", write.blobBaseFeesWei],
    ["blob gas used ratios", write.blobGasUsedRatios],
  ] as const) {
    if (values !== undefined && values.length !== count) throw new RangeError(`${values.length} ${name} for ${count} blocks`);
  }
  const blobFees = write.blobBaseFeesWei;
  if (blobFees !== undefined) {
    for (let i = 0; i < count; i++) {
      const fee = blobFees[i]!;
      if ((fee < 0n && fee !== UNKNOWN_BLOB_FEE) || fee >= 2n ** 63n) throw new RangeError(`a blob base fee is at least 0 and below 2^63 wei (got ${fee})`);
    }
  }
  if (write.blobGasUsedRatios !== undefined && write.blobBaseFeesWei === undefined) throw new RangeError("blob gas used ratios without blob base fees");
}

/**
 * A tracked window's blocks and order statistics, whichever series it keeps: its p50 and p90 (the busy threshold),
 * min and max, and its fees for further ranks; undefined while it holds no fee.
 */
function orderStatsOf(window: WindowTracker): (BlobWindowStats & { readonly fees: FeeMultiset }) | undefined {
  const fees = window.fees;
  const n = fees.size;
  if (n === 0) return undefined;
  return {
    blocks: n,
    fromBlock: BigInt(window.firstHeldBlock),
    toBlock: BigInt(window.toBlock),
    percentileWei: fees.at(nearestRankIndex(n, 50)),
    busyThresholdWei: fees.at(nearestRankIndex(n, 90)),
    minWei: fees.min!,
    maxWei: fees.max!,
    fees,
  };
}
