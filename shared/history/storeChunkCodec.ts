import { STORE_CHUNK_BLOCKS, UNKNOWN_GAS_USED, type ChunkSlots } from "./storeChunkSlots.ts";

/**
 * The stored record of one chunk: its held blocks' fields packed column by column, each column only as wide as its
 * largest value needs (a mainnet base fee takes 5 or 6 bytes, not 8). Little-endian throughout:
 *
 *   header (6 bytes): format (1), base-fee width (1-8), gas-used width (0 or 2), blob-fee width (0-8),
 *                     anchor count (0-64), timestamp-delta width (0-4)
 *   base fees         one per held block, oldest first
 *   gas used          parts per 10,000, 0xffff where unknown (absent when no held block has one)
 *   blob base fees    all 0xff where unknown (absent when no held block has one)
 *   anchors           when any: the smallest timestamp (u32), each anchor's slot (u8, ascending), and each one's
 *                     timestamp minus the smallest
 *
 * Which blocks are held is the chunk's `held` mask, kept beside the record (so that the held ranges are read without
 * reading records); the record's length must match it exactly, or it is refused as damaged.
 */
export const CHUNK_FORMAT = 1;
const HEADER_BYTES = 6;
const GAS_USED_BYTES = 2;
const TIMESTAMP_BASE_BYTES = 4;

/** A stored record that does not decode: the file is damaged (or was written by something else). */
export class ChunkFormatError extends Error {
  override name = "ChunkFormatError";
}

/** Packs the held slots of `slots` into a record. */
export function encodeChunk(slots: ChunkSlots): Uint8Array {
  const heldSlots = heldSlotsOf(slots);
  const count = heldSlots.length;
  let baseFeeWidth = 1;
  let anyGasUsed = false;
  let blobFeeWidth = 0;
  let anyBlobFee = false;
  let anchorCount = 0;
  let smallestTimestamp = Number.POSITIVE_INFINITY;
  let largestTimestamp = 0;
  for (const slot of heldSlots) {
    baseFeeWidth = Math.max(baseFeeWidth, significantBytes(slots.baseFeeBytes, slot * 8));
    if (slots.gasUsedParts[slot] !== UNKNOWN_GAS_USED) anyGasUsed = true;
    if (slots.blobBaseFeesWei[slot]! >= 0n) {
      anyBlobFee = true;
      // One byte wider than the value when the value would read as "unknown" (all 0xff) at its own width.
      const width = significantBytes(slots.blobBaseFeeBytes, slot * 8);
      blobFeeWidth = Math.max(blobFeeWidth, width === 0 ? 1 : isAllOnes(slots.blobBaseFeeBytes, slot * 8, width) ? width + 1 : width);
    }
    const timestamp = slots.timestamps[slot]!;
    if (!Number.isNaN(timestamp)) {
      anchorCount++;
      smallestTimestamp = Math.min(smallestTimestamp, timestamp);
      largestTimestamp = Math.max(largestTimestamp, timestamp);
    }
  }
  const gasUsedWidth = anyGasUsed ? GAS_USED_BYTES : 0;
  if (!anyBlobFee) blobFeeWidth = 0;
  const deltaWidth = anchorCount === 0 ? 0 : unsignedWidth(largestTimestamp - smallestTimestamp);
  const anchorBytes = anchorCount === 0 ? 0 : TIMESTAMP_BASE_BYTES + anchorCount * (1 + deltaWidth);
  const record = new Uint8Array(HEADER_BYTES + count * (baseFeeWidth + gasUsedWidth + blobFeeWidth) + anchorBytes);
  record.set([CHUNK_FORMAT, baseFeeWidth, gasUsedWidth, blobFeeWidth, anchorCount, deltaWidth]);
  let at = HEADER_BYTES;
  for (const slot of heldSlots) {
    record.set(slots.baseFeeBytes.subarray(slot * 8, slot * 8 + baseFeeWidth), at);
    at += baseFeeWidth;
  }
  if (gasUsedWidth > 0) {
    for (const slot of heldSlots) {
      const parts = slots.gasUsedParts[slot]!;
      record[at++] = parts & 0xff;
      record[at++] = parts >>> 8;
    }
  }
  if (blobFeeWidth > 0) {
    for (const slot of heldSlots) {
      // An unknown fee is -1n, all 0xff: its low bytes are the marker at any width.
      record.set(slots.blobBaseFeeBytes.subarray(slot * 8, slot * 8 + blobFeeWidth), at);
      at += blobFeeWidth;
    }
  }
  if (anchorCount > 0) {
    writeUnsigned(record, at, TIMESTAMP_BASE_BYTES, smallestTimestamp);
    at += TIMESTAMP_BASE_BYTES;
    for (const slot of heldSlots) if (!Number.isNaN(slots.timestamps[slot]!)) record[at++] = slot;
    for (const slot of heldSlots) {
      const timestamp = slots.timestamps[slot]!;
      if (Number.isNaN(timestamp)) continue;
      writeUnsigned(record, at, deltaWidth, timestamp - smallestTimestamp);
      at += deltaWidth;
    }
  }
  return record;
}

/**
 * Unpacks `record` into `into` (cleared first), whose held slots are `heldMask`. Throws ChunkFormatError when the
 * record is not one encodeChunk could have written for that mask.
 */
export function decodeChunk(record: Uint8Array, heldMask: bigint, into: ChunkSlots): void {
  into.clear();
  into.setHeldMask(heldMask);
  const heldSlots = heldSlotsOf(into);
  const count = heldSlots.length;
  if (count === 0) throw new ChunkFormatError("a chunk record holds no block");
  if (record.length < HEADER_BYTES) throw new ChunkFormatError(`a chunk record of ${record.length} bytes is shorter than its header`);
  const format = record[0]!;
  const baseFeeWidth = record[1]!;
  const gasUsedWidth = record[2]!;
  const blobFeeWidth = record[3]!;
  const anchorCount = record[4]!;
  const deltaWidth = record[5]!;
  if (format !== CHUNK_FORMAT) throw new ChunkFormatError(`a chunk record has format ${format}, not ${CHUNK_FORMAT}`);
  if (baseFeeWidth < 1 || baseFeeWidth > 8 || (gasUsedWidth !== 0 && gasUsedWidth !== GAS_USED_BYTES) || blobFeeWidth > 8 || deltaWidth > 4) {
    throw new ChunkFormatError(`a chunk record has impossible column widths (${baseFeeWidth}, ${gasUsedWidth}, ${blobFeeWidth}, ${deltaWidth})`);
  }
  if (anchorCount > count) throw new ChunkFormatError(`a chunk record has ${anchorCount} anchors for ${count} blocks`);
  const anchorBytes = anchorCount === 0 ? 0 : TIMESTAMP_BASE_BYTES + anchorCount * (1 + deltaWidth);
  const expectedLength = HEADER_BYTES + count * (baseFeeWidth + gasUsedWidth + blobFeeWidth) + anchorBytes;
  if (record.length !== expectedLength) {
    throw new ChunkFormatError(`a chunk record of ${record.length} bytes, where its ${count} blocks need ${expectedLength}`);
  }
  let at = HEADER_BYTES;
  for (const slot of heldSlots) {
    into.baseFeeBytes.set(record.subarray(at, at + baseFeeWidth), slot * 8);
    at += baseFeeWidth;
    if (into.baseFeeBytes[slot * 8 + 7]! >= 0x80) throw new ChunkFormatError("a chunk record holds a base fee of 2^63 wei or more");
  }
  if (gasUsedWidth > 0) {
    for (const slot of heldSlots) {
      into.gasUsedParts[slot] = record[at]! | (record[at + 1]! << 8);
      at += GAS_USED_BYTES;
    }
  }
  if (blobFeeWidth > 0) {
    for (const slot of heldSlots) {
      if (!isAllOnes(record, at, blobFeeWidth)) {
        into.blobBaseFeeBytes.fill(0, slot * 8, slot * 8 + 8);
        into.blobBaseFeeBytes.set(record.subarray(at, at + blobFeeWidth), slot * 8);
        if (into.blobBaseFeeBytes[slot * 8 + 7]! >= 0x80) throw new ChunkFormatError("a chunk record holds a blob base fee of 2^63 wei or more");
      }
      at += blobFeeWidth;
    }
  }
  if (anchorCount > 0) {
    const smallestTimestamp = readUnsigned(record, at, TIMESTAMP_BASE_BYTES);
    at += TIMESTAMP_BASE_BYTES;
    const deltasAt = at + anchorCount;
    let previousSlot = -1;
    for (let anchor = 0; anchor < anchorCount; anchor++) {
      const slot = record[at + anchor]!;
      if (slot <= previousSlot || slot >= STORE_CHUNK_BLOCKS || !into.isHeld(slot))
        throw new ChunkFormatError(`a chunk record anchors slot ${slot}, which it does not hold`);
      previousSlot = slot;
      const timestamp = smallestTimestamp + readUnsigned(record, deltasAt + anchor * deltaWidth, deltaWidth);
      if (timestamp > 0xffff_ffff) throw new ChunkFormatError(`a chunk record holds timestamp ${timestamp}, beyond 2^32 - 1`);
      into.timestamps[slot] = timestamp;
    }
  }
}

/** The held slots of `slots`, ascending. */
function heldSlotsOf(slots: ChunkSlots): number[] {
  const held: number[] = [];
  for (let slot = 0; slot < STORE_CHUNK_BLOCKS; slot++) if (slots.isHeld(slot)) held.push(slot);
  return held;
}

/** How many of the 8 bytes at `offset` are needed to write the value (0 for zero). */
function significantBytes(bytes: Uint8Array, offset: number): number {
  for (let width = 8; width > 0; width--) if (bytes[offset + width - 1] !== 0) return width;
  return 0;
}

function isAllOnes(bytes: Uint8Array, offset: number, width: number): boolean {
  for (let i = 0; i < width; i++) if (bytes[offset + i] !== 0xff) return false;
  return true;
}

/** Bytes needed for a whole number below 2^32 (0 for zero). */
function unsignedWidth(value: number): number {
  return value === 0 ? 0 : value < 0x100 ? 1 : value < 0x1_0000 ? 2 : value < 0x100_0000 ? 3 : 4;
}

function writeUnsigned(bytes: Uint8Array, offset: number, width: number, value: number): void {
  for (let i = 0; i < width; i++) bytes[offset + i] = Math.floor(value / 2 ** (8 * i)) & 0xff;
}

function readUnsigned(bytes: Uint8Array, offset: number, width: number): number {
  let value = 0;
  for (let i = width - 1; i >= 0; i--) value = value * 256 + bytes[offset + i]!;
  return value;
}
