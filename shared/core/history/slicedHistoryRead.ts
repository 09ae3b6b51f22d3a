import { blobRuns } from "./blobRuns.ts";
import type { FeeSeries } from "./blockColumns.ts";
import type { BlockRun } from "./blockRun.ts";
import type { HistoryView } from "./historyView.ts";

/**
 * A slice resumes from the last block it read, looking this far back in time for it: interpolated timestamps may move
 * a little between slices (a new anchor), and the blocks before it are skipped by number.
 */
const RESUME_MARGIN_SECONDS = 60;

/**
 * Reads the held blocks timed in `[fromSeconds, endSeconds)`, oldest first, a slice of at most so many blocks at a
 * time, each slice resuming after the last block read: a long read (baseFeeStats over a week, the CSV export) can let
 * other work run between its slices. No iteration of the history is held across slices: its runs are views that new
 * blocks overwrite, and pruning drops its oldest chunks, so each slice asks the history again from where the last one
 * stopped. Blocks re-mined between slices are read as they are when their slice reads them. With the "blob" series,
 * `visit` is handed the blob base fees as runs of their own (blobRuns.ts): the blocks that have one.
 */
export class SlicedHistoryRead {
  readonly #history: HistoryView;
  readonly #fromSeconds: number;
  readonly #endSeconds: number;
  readonly #series: FeeSeries;
  #resumeSeconds: number;
  #lastBlock = -1;
  #done = false;

  constructor(history: HistoryView, fromSeconds: number, endSeconds: number, series: FeeSeries = "base") {
    this.#history = history;
    this.#series = series;
    this.#fromSeconds = fromSeconds;
    this.#endSeconds = endSeconds;
    this.#resumeSeconds = fromSeconds;
  }

  /** Whether every block of the range has been read. */
  get done(): boolean {
    return this.#done;
  }

  /**
   * Hands `visit` the next runs of the range (cut to it and to the blocks not read yet), at most `maxBlocks` blocks in
   * all (blocks read, whatever the series); returns how many it read. A run's arrays are views: `visit` copies what it keeps.
   */
  next(maxBlocks: number, visit: (run: BlockRun) => void): number {
    let read = 0;
    if (this.#done) return read;
    for (const run of this.#history.runs(this.#resumeSeconds, this.#endSeconds)) {
      const { timestamps, baseFeesWei } = run;
      const first = Number(run.firstBlock);
      let start = Math.max(0, this.#lastBlock + 1 - first);
      while (start < timestamps.length && timestamps[start]! < this.#fromSeconds) start++;
      const limit = Math.min(timestamps.length, start + maxBlocks - read);
      let end = start;
      while (end < limit && timestamps[end]! < this.#endSeconds) end++;
      if (end > start) {
        const slice: BlockRun = {
          firstBlock: run.firstBlock + BigInt(start),
          timestamps: timestamps.subarray(start, end),
          baseFeesWei: baseFeesWei.subarray(start, end),
          blobBaseFeesWei: run.blobBaseFeesWei?.subarray(start, end),
          gasUsedParts: run.gasUsedParts?.subarray(start, end),
          blobGasUsedParts: run.blobGasUsedParts?.subarray(start, end),
        };
        if (this.#series === "blob") for (const blobRun of blobRuns([slice])) visit(blobRun);
        else visit(slice);
        read += end - start;
        this.#lastBlock = first + end - 1;
        this.#resumeSeconds = Math.max(this.#fromSeconds, timestamps[end - 1]! - RESUME_MARGIN_SECONDS);
      }
      if (end < timestamps.length && timestamps[end]! >= this.#endSeconds) {
        this.#done = true;
        return read;
      }
      if (read >= maxBlocks) return read;
    }
    this.#done = true;
    return read;
  }
}
