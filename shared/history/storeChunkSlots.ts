import { endianness } from "node:os";

/**
 * Blocks per stored chunk. Block `b` lives in chunk `floor(b / 64)`, slot `b % 64`, so that which slots a chunk holds
 * fits one 64-bit SQLite INTEGER (the chunk's `held` mask). Not the history's chunks in memory (HISTORY_CHUNK_BLOCKS).
 */
export const STORE_CHUNK_BLOCKS = 64;

/** The gas-used ratio is kept as an integer number of parts per 10,000 of the gas limit. */
export const GAS_USED_PARTS = 10_000;
/** The stored value of a gas-used ratio that is not known. */
export const UNKNOWN_GAS_USED = 0xffff;
/** The largest ratio that can be kept (65,534 parts per 10,000): eth_feeHistory gives 0 to 1. */
export const MAX_GAS_USED_RATIO = (UNKNOWN_GAS_USED - 1) / GAS_USED_PARTS;
/** A blob base fee that is not known (fees are never negative). */
export const UNKNOWN_BLOB_BASE_FEE = -1n;

/**
 * One chunk's 64 slots, decoded: the working form between the stored record and the caller's arrays. Its owner (a
 * store) reuses one instance for every chunk it reads or writes. Fees are kept in typed arrays whose bytes can be
 * copied without making a bigint per block.
 */
export class ChunkSlots {
  /** Bit `i` set: slot `i` holds a block. Slots 0-31 and 32-63, as unsigned 32-bit numbers (cheaper than a bigint). */
  heldLow = 0;
  heldHigh = 0;
  readonly baseFeesWei = new BigUint64Array(STORE_CHUNK_BLOCKS);
  /** The bytes of `baseFeesWei`, little-endian, 8 per slot. */
  readonly baseFeeBytes = new Uint8Array(this.baseFeesWei.buffer);
  /** Parts per 10,000 of the gas limit; UNKNOWN_GAS_USED where not known. */
  readonly gasUsedParts = new Uint16Array(STORE_CHUNK_BLOCKS);
  /** UNKNOWN_BLOB_BASE_FEE where not known. */
  readonly blobBaseFeesWei = new BigInt64Array(STORE_CHUNK_BLOCKS);
  /** The bytes of `blobBaseFeesWei`, little-endian, 8 per slot (all 0xff where not known). */
  readonly blobBaseFeeBytes = new Uint8Array(this.blobBaseFeesWei.buffer);
  /** Unix seconds where the block is an anchor (its header was seen); NaN elsewhere. */
  readonly timestamps = new Float64Array(STORE_CHUNK_BLOCKS);

  constructor() {
    // The stored format is little-endian and is copied byte for byte to and from these arrays.
    if (endianness() !== "LE") throw new Error("its stored format needs a little-endian CPU (x86-64 or ARM)");
    this.clear();
  }

  /** Empties every slot. */
  clear(): void {
    this.heldLow = 0;
    this.heldHigh = 0;
    this.baseFeesWei.fill(0n);
    this.gasUsedParts.fill(UNKNOWN_GAS_USED);
    this.blobBaseFeesWei.fill(UNKNOWN_BLOB_BASE_FEE);
    this.timestamps.fill(Number.NaN);
  }

  isHeld(slot: number): boolean {
    return slot < 32 ? ((this.heldLow >>> slot) & 1) === 1 : ((this.heldHigh >>> (slot - 32)) & 1) === 1;
  }

  /** Marks `slot` as holding a block (its fields are set by the caller). */
  hold(slot: number): void {
    if (slot < 32) this.heldLow = (this.heldLow | (1 << slot)) >>> 0;
    else this.heldHigh = (this.heldHigh | (1 << (slot - 32))) >>> 0;
  }

  /** Empties `slot`. */
  release(slot: number): void {
    if (slot < 32) this.heldLow = (this.heldLow & ~(1 << slot)) >>> 0;
    else this.heldHigh = (this.heldHigh & ~(1 << (slot - 32))) >>> 0;
    this.baseFeesWei[slot] = 0n;
    this.gasUsedParts[slot] = UNKNOWN_GAS_USED;
    this.blobBaseFeesWei[slot] = UNKNOWN_BLOB_BASE_FEE;
    this.timestamps[slot] = Number.NaN;
  }

  heldCount(): number {
    return bitCount(this.heldLow) + bitCount(this.heldHigh);
  }

  /** The held slots as SQLite stores them: a signed 64-bit integer (all 64 held is -1, one byte on disk). */
  heldMask(): bigint {
    return BigInt.asIntN(64, (BigInt(this.heldHigh) << 32n) | BigInt(this.heldLow));
  }

  setHeldMask(mask: bigint): void {
    const unsigned = BigInt.asUintN(64, mask);
    this.heldLow = Number(unsigned & 0xffff_ffffn);
    this.heldHigh = Number(unsigned >> 32n);
  }

  /** Sets the held slots from the mask's halves: slots 0-31 and 32-63, each an unsigned 32-bit number. */
  setHeldHalves(low: number, high: number): void {
    this.heldLow = low >>> 0;
    this.heldHigh = high >>> 0;
  }
}

/** How many bits of a 32-bit number are set. */
export function bitCount(value: number): number {
  let bits = value >>> 0;
  bits -= (bits >>> 1) & 0x5555_5555;
  bits = (bits & 0x3333_3333) + ((bits >>> 2) & 0x3333_3333);
  return (Math.imul((bits + (bits >>> 4)) & 0x0f0f_0f0f, 0x0101_0101) >>> 24) & 0xff;
}

/** How many blocks a stored `held` mask says its chunk holds. */
export function heldCountOf(mask: bigint): number {
  const unsigned = BigInt.asUintN(64, mask);
  return bitCount(Number(unsigned & 0xffff_ffffn)) + bitCount(Number(unsigned >> 32n));
}
