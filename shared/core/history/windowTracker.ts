import { FeeMultiset } from "../fees/feeMultiset.ts";
import type { BlockColumns } from "./blockColumns.ts";
import { firstHeldBetween, heldFeesBetween } from "./heldFees.ts";

/**
 * The fees of the held blocks in a block range [from, to] (a window: the statistics window, or one an alert asked
 * for), kept in a FeeMultiset as the range and the blocks move: a move inserts what enters and removes what leaves,
 * and a move that would touch more blocks than the window holds rebuilds it in one sort instead.
 */
export class WindowTracker {
  readonly #columns: BlockColumns;
  readonly #fees: FeeMultiset;
  /** The range tracked; empty while `to < from`. */
  #from = 0;
  #to = -1;
  /**
   * The first held block of the range, once asked, until the range moves or a block of it comes to be held: asked
   * by every rule at every block, and finding it walks the history's storage (microseconds, times 200 rules).
   */
  #firstHeld: number | undefined;

  constructor(columns: BlockColumns, fees = new FeeMultiset()) {
    this.#columns = columns;
    this.#fees = fees;
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

  /** The first block of the range that is held (the range's first block when none is: the window is empty). */
  get firstHeldBlock(): number {
    this.#firstHeld ??= firstHeldBetween(this.#columns, this.#from, this.#to) ?? this.#from;
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
    if (to > this.#to) this.#columns.forEachHeld(this.#to + 1, to, (fee) => this.#fees.insert(fee));
    else if (to < this.#to) this.#columns.forEachHeld(to + 1, this.#to, (fee) => this.#fees.remove(fee));
    if (from < this.#from) this.#columns.forEachHeld(from, this.#from - 1, (fee) => this.#fees.insert(fee));
    else if (from > this.#from) this.#columns.forEachHeld(this.#from, from - 1, (fee) => this.#fees.remove(fee));
    this.#from = from;
    this.#to = to;
  }

  #rebuild(): void {
    this.#fees.reset(heldFeesBetween(this.#columns, this.#from, this.#to));
  }
}
