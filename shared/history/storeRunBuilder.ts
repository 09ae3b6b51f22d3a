import type { BlockAnchor, StoredRun } from "./historyStoreTypes.ts";
import { STORE_CHUNK_BLOCKS, GAS_USED_PARTS, UNKNOWN_GAS_USED, type ChunkSlots } from "./storeChunkSlots.ts";

/** The most blocks in one loaded run: a longer stretch comes as several runs (1.5 MB of arrays each at most). */
export const MAX_RUN_BLOCKS = 65_536;

/**
 * Gathers decoded chunks' blocks, oldest first, into runs of consecutive blocks: a gap, or a run grown to
 * MAX_RUN_BLOCKS, ends a run. Each run gets arrays of its own, so that callers may keep them.
 */
export class StoredRunBuilder {
  private firstBlock = 0;
  private length = 0;
  private baseFeesWei = new BigUint64Array(MAX_RUN_BLOCKS);
  private baseFeeBytes = new Uint8Array(this.baseFeesWei.buffer);
  private gasUsedRatios = new Float64Array(MAX_RUN_BLOCKS);
  private blobBaseFeesWei = new BigInt64Array(MAX_RUN_BLOCKS);
  private blobBaseFeeBytes = new Uint8Array(this.blobBaseFeesWei.buffer);
  private anchors: BlockAnchor[] = [];

  /**
   * Adds the held slots `fromSlot` to `toSlot` (both included) of chunk `chunk`, decoded in `slots`. Returns the runs
   * this completed (usually none).
   */
  add(chunk: number, slots: ChunkSlots, fromSlot: number, toSlot: number): StoredRun[] {
    const finished: StoredRun[] = [];
    let slot = fromSlot;
    while (slot <= toSlot) {
      if (!slots.isHeld(slot)) {
        slot++;
        continue;
      }
      // A stretch of held slots: copied at once, within what the current run has room for.
      let end = slot;
      while (end + 1 <= toSlot && slots.isHeld(end + 1)) end++;
      const block = chunk * STORE_CHUNK_BLOCKS + slot;
      if (this.length > 0 && (block !== this.firstBlock + this.length || this.length === MAX_RUN_BLOCKS)) finished.push(this.finish());
      if (this.length === 0) this.firstBlock = block;
      const take = Math.min(end - slot + 1, MAX_RUN_BLOCKS - this.length);
      this.copy(slots, slot, take);
      slot += take;
    }
    return finished;
  }

  /** The run being gathered, if it holds any block (call once no more blocks come). */
  flush(): StoredRun | undefined {
    return this.length > 0 ? this.finish() : undefined;
  }

  private copy(slots: ChunkSlots, fromSlot: number, count: number): void {
    const at = this.length;
    this.baseFeeBytes.set(slots.baseFeeBytes.subarray(fromSlot * 8, (fromSlot + count) * 8), at * 8);
    this.blobBaseFeeBytes.set(slots.blobBaseFeeBytes.subarray(fromSlot * 8, (fromSlot + count) * 8), at * 8);
    for (let i = 0; i < count; i++) {
      const parts = slots.gasUsedParts[fromSlot + i]!;
      this.gasUsedRatios[at + i] = parts === UNKNOWN_GAS_USED ? Number.NaN : parts / GAS_USED_PARTS;
      const timestamp = slots.timestamps[fromSlot + i]!;
      if (!Number.isNaN(timestamp)) this.anchors.push({ block: BigInt(this.firstBlock + at + i), timestamp });
    }
    this.length += count;
  }

  private finish(): StoredRun {
    const length = this.length;
    const full = length === MAX_RUN_BLOCKS;
    // A full run hands its arrays over (new ones are made for the next); a shorter one is copied to its length.
    const run: StoredRun = {
      firstBlock: BigInt(this.firstBlock),
      baseFeesWei: full ? this.baseFeesWei : this.baseFeesWei.slice(0, length),
      anchors: this.anchors,
      gasUsedRatios: full ? this.gasUsedRatios : this.gasUsedRatios.slice(0, length),
      blobBaseFeesWei: full ? this.blobBaseFeesWei : this.blobBaseFeesWei.slice(0, length),
    };
    if (full) {
      this.baseFeesWei = new BigUint64Array(MAX_RUN_BLOCKS);
      this.baseFeeBytes = new Uint8Array(this.baseFeesWei.buffer);
      this.gasUsedRatios = new Float64Array(MAX_RUN_BLOCKS);
      this.blobBaseFeesWei = new BigInt64Array(MAX_RUN_BLOCKS);
      this.blobBaseFeeBytes = new Uint8Array(this.blobBaseFeesWei.buffer);
    }
    this.anchors = [];
    this.length = 0;
    return run;
  }
}
