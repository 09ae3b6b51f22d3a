import { FeeMultiset } from "../fees/feeMultiset.ts";
import type { BlockColumns, FeeSeries } from "./blockColumns.ts";
import { firstFeeBetween, heldFeesBetween } from "./heldFees.ts";

/**
 * The fees of the held blocks in a block range [from, to] (a window: the statistics window, or one an alert asked
 * for), kept in a FeeMultiset as the range and the blocks move: a move inserts what enters and removes what leaves,
 * and a move that would touch more blocks than the window holds rebuilds it in one sort instead.
 */
export class WindowTracker {
  readonly #columns: BlockColumns;
  readonly #fees: FeeMultiset;
  readonly #series: FeeSeries;
  /** The range tracked; empty while `to < from`. */
  #from = 0;
  #to = -1;
  /**
   * The first held block of the range, once asked, until the range moves or a block of it comes to be held: asked
   * by every rule at every block, and finding it walks the history's storage (microseconds, times 200 rules).
   */
  #firstHeld: number | undefined;

  /** `series`: which fee of the range's blocks it keeps ("blob": only the blocks that have one). */
  constructor(columns: BlockColumns, fees = new FeeMultiset(), series: FeeSeries = "base") {
    this.#columns = columns;
    this.#fees = fees;
    this.#series = series;
  }

  get series(): FeeSeries {
    return this.#series;
  }

  get fees(): FeeMultiset {
    return this.#fees;
  }

  get fromBlock(): number {
    return this.#from;
  }

  get toBlock(): number {
    return this.#to;
  }

  /** The first block of the range whose fee of its series is held (the range's first block when none is: the window is empty). */
  get firstHeldBlock(): number {
    this.#firstHeld ??= firstFeeBetween(this.#columns, this.#from, this.#to, this.#series) ?? this.#from;
    return this.#firstHeld;
  }

  /** Whether `block` lies in the range tracked. */
  covers(block: number): boolean {
    return block >= this.#from && block <= this.#to;
  }

  /** A held block of the range got a new fee (`old` null: it was not held before). */
  feeChanged(block: number, old: bigint | null, fee: bigint): void {
    if (!this.covers(block)) return;
    if (old === null) this.#firstHeld = undefined;
    else this.#fees.remove(old);
    this.#fees.insert(fee);
  }

  /** Tracks [from, to] from now on. */
  moveTo(from: number, to: number): void {
    if (from === this.#from && to === this.#to) return;
    this.#firstHeld = undefined;
    const overlapping = from <= this.#to && to >= this.#from && this.#to >= this.#from;
    const moved = Math.abs(from - this.#from) + Math.abs(to - this.#to);
    if (!overlapping || moved > Math.max(1_024, this.#fees.size)) {
      this.#from = from;
      this.#to = to;
      this.#rebuild();
      return;
    }
    const insert = (fee: bigint) => this.#fees.insert(fee);
    const remove = (fee: bigint) => this.#fees.remove(fee);
    if (to > this.#to) this.#columns.forEachHeld(this.#to + 1, to, insert, this.#series);
    else if (to < this.#to) this.#columns.forEachHeld(to + 1, this.#to, remove, this.#series);
    if (from < this.#from) this.#columns.forEachHeld(from, this.#from - 1, insert, this.#series);
    else if (from > this.#from) this.#columns.forEachHeld(this.#from, from - 1, remove, this.#series);
    this.#from = from;
    this.#to = to;
  }

  #rebuild(): void {
    this.#fees.reset(heldFeesBetween(this.#columns, this.#from, this.#to, this.#series));
  }
}
