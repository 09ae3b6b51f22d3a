// A HistoryView over plain arrays, for tests and benchmarks of the history's readers (baseFeeStats, the CSV export):
// the same interface the service's history implements, with its runs cut where the blocks have gaps and every
// `runBlocks` blocks (as the history's storage chunks cut them), and a count of what it handed out.
import { HISTORY_BLOCKS } from "../../shared/core/fees/historyLength.ts";
import { nearestRank } from "../../shared/core/fees/percentile.ts";
import type { BlockRun } from "../../shared/core/history/blockRun.ts";
import type { WindowSpec } from "../../shared/core/history/duration.ts";
import type { HeldBlock, HistoryView, WindowPercentile } from "../../shared/core/history/historyView.ts";

/** One held block. */
export interface ArrayBlock {
  readonly block: bigint;
  readonly timestamp: number;
  readonly baseFeeWei: bigint;
}

/** Consecutive blocks from `firstBlock`, block `firstBlock + i` with `timestamps[i]` and `baseFeesWei[i]`. */
export interface ArraySegment {
  readonly firstBlock: bigint;
  readonly timestamps: Float64Array;
  readonly baseFeesWei: BigUint64Array;
}

export interface ArrayHistoryOptions {
  /** The longest run handed out; longer stretches are cut into runs of this many blocks. Default 65,536. */
  readonly runBlocks?: number;
}

export class ArrayHistoryView implements HistoryView {
  readonly #segments: readonly ArraySegment[];
  readonly #runBlocks: number;
  /** Blocks handed out in runs so far, over every call of `runs` (how far readers have read). */
  blocksHandedOut = 0;
  /** Calls of `runs` so far. */
  runsCalls = 0;

  /** `segments`: oldest first, blocks ascending with gaps between segments, timestamps never decreasing. */
  constructor(segments: readonly ArraySegment[], options: ArrayHistoryOptions = {}) {
    let previous: HeldBlock | undefined;
    for (const segment of segments) {
      if (segment.timestamps.length !== segment.baseFeesWei.length) throw new Error("a segment has as many timestamps as fees");
      for (let index = 0; index < segment.timestamps.length; index++) {
        const block = segment.firstBlock + BigInt(index);
        const timestamp = segment.timestamps[index]!;
        if (previous !== undefined && (block <= previous.block || timestamp < previous.timestamp)) {
          throw new Error(
            `block ${block} at ${timestamp} comes after block ${previous.block} at ${previous.timestamp}: blocks must ascend, timestamps not descend`,
          );
        }
        previous = { block, timestamp };
      }
    }
    this.#segments = segments.filter((segment) => segment.timestamps.length > 0);
    this.#runBlocks = options.runBlocks ?? 65_536;
  }

  /** A view over `blocks` (ascending), split into segments where block numbers have gaps. */
  static of(blocks: readonly ArrayBlock[], options: ArrayHistoryOptions = {}): ArrayHistoryView {
    const segments: ArraySegment[] = [];
    let start = 0;
    for (let index = 1; index <= blocks.length; index++) {
      if (index < blocks.length && blocks[index]!.block === blocks[index - 1]!.block + 1n) continue;
      const part = blocks.slice(start, index);
      if (part.length > 0) {
        segments.push({
          firstBlock: part[0]!.block,
          timestamps: Float64Array.from(part, (block) => block.timestamp),
          baseFeesWei: BigUint64Array.from(part, (block) => block.baseFeeWei),
        });
      }
      start = index;
    }
    return new ArrayHistoryView(segments, options);
  }

  get blocksHeld(): number {
    return this.#segments.reduce((sum, segment) => sum + segment.timestamps.length, 0);
  }

  get oldest(): HeldBlock | undefined {
    const first = this.#segments[0];
    return first === undefined ? undefined : { block: first.firstBlock, timestamp: first.timestamps[0]! };
  }

  get newest(): HeldBlock | undefined {
    const last = this.#segments.at(-1);
    if (last === undefined) return undefined;
    const index = last.timestamps.length - 1;
    return { block: last.firstBlock + BigInt(index), timestamp: last.timestamps[index]! };
  }

  *runs(fromSeconds: number, toSeconds: number): Iterable<BlockRun> {
    this.runsCalls++;
    for (const segment of this.#segments) {
      const { timestamps, baseFeesWei, firstBlock } = segment;
      let start = firstIndex(timestamps, (timestamp) => timestamp >= fromSeconds);
      const end = firstIndex(timestamps, (timestamp) => timestamp > toSeconds);
      while (start < end) {
        const stop = Math.min(end, start + this.#runBlocks);
        this.blocksHandedOut += stop - start;
        yield { firstBlock: firstBlock + BigInt(start), timestamps: timestamps.subarray(start, stop), baseFeesWei: baseFeesWei.subarray(start, stop) };
        start = stop;
      }
    }
  }

  /** The window's fees sorted whole at each call (the plain way: the service's history keeps them sorted as blocks come). */
  percentileOver(window: WindowSpec, percentile: number, series: "base" | "blob" = "base"): WindowPercentile | undefined {
    if (series === "blob") return undefined; // its blocks carry no blob base fee
    const newest = this.newest;
    const oldest = this.oldest;
    if (newest === undefined || oldest === undefined) return undefined;
    let fromBlock: bigint;
    if (window.kind === "blocks") {
      fromBlock = newest.block - BigInt(window.blocks) + 1n;
    } else {
      const byTime = this.#blocks().find((block) => block.timestamp >= newest.timestamp - window.seconds)!.block;
      const newestBlocks = newest.block - BigInt(HISTORY_BLOCKS) + 1n;
      fromBlock = byTime < newestBlocks ? byTime : newestBlocks;
    }
    if (fromBlock < oldest.block) fromBlock = oldest.block;
    const held = this.#blocks().filter((block) => block.block >= fromBlock);
    const fees = held.map((block) => block.baseFeeWei).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    // The window's first block is the oldest one it holds (its start may lie in a gap).
    return { wei: nearestRank(fees, percentile), blocks: fees.length, fromBlock: held[0]?.block ?? fromBlock, toBlock: newest.block };
  }

  #blocks(): ArrayBlock[] {
    return this.#segments.flatMap((segment) =>
      Array.from(segment.baseFeesWei, (baseFeeWei, index) => ({
        block: segment.firstBlock + BigInt(index),
        timestamp: segment.timestamps[index]!,
        baseFeeWei,
      })),
    );
  }
}

/** The first index whose timestamp passes `test` (which, once true, stays true), or the length. */
function firstIndex(timestamps: Float64Array, test: (timestamp: number) => boolean): number {
  let low = 0;
  let high = timestamps.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(timestamps[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}
