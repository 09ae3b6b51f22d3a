import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { ChunkFormatError, decodeChunk, encodeChunk } from "./storeChunkCodec.ts";
import { STORE_CHUNK_BLOCKS, ChunkSlots, UNKNOWN_BLOB_BASE_FEE, UNKNOWN_GAS_USED } from "./storeChunkSlots.ts";

interface SlotValues {
  readonly baseFeeWei: bigint;
  readonly gasUsedParts: number | undefined;
  readonly blobBaseFeeWei: bigint | undefined;
  readonly timestamp: number | undefined;
}

const feeWei = fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }), fc.constantFrom(0n, 1n, 255n, 256n, 2n ** 40n - 1n, 2n ** 63n - 1n));
const slotValues: fc.Arbitrary<SlotValues> = fc.record({
  baseFeeWei: feeWei,
  gasUsedParts: fc.option(fc.integer({ min: 0, max: UNKNOWN_GAS_USED - 1 }), { nil: undefined }),
  // The fees whose bytes look like the "unknown" marker at their own width are the interesting ones.
  blobBaseFeeWei: fc.option(fc.oneof(feeWei, fc.constantFrom(0xffn, 0xffffn, 0xff_ffffn, 2n ** 56n - 1n)), { nil: undefined }),
  timestamp: fc.option(fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 1_700_000_000, max: 1_700_001_000 })), { nil: undefined }),
});
/** Up to 64 slots, each held (with values) or not. */
const chunkContents = fc.array(fc.option(slotValues, { nil: undefined, freq: 3 }), { minLength: STORE_CHUNK_BLOCKS, maxLength: STORE_CHUNK_BLOCKS });

function slotsOf(contents: readonly (SlotValues | undefined)[]): ChunkSlots {
  const slots = new ChunkSlots();
  contents.forEach((values, slot) => {
    if (!values) return;
    slots.hold(slot);
    slots.baseFeesWei[slot] = values.baseFeeWei;
    if (values.gasUsedParts !== undefined) slots.gasUsedParts[slot] = values.gasUsedParts;
    if (values.blobBaseFeeWei !== undefined) slots.blobBaseFeesWei[slot] = values.blobBaseFeeWei;
    if (values.timestamp !== undefined) slots.timestamps[slot] = values.timestamp;
  });
  return slots;
}

function contentsOf(slots: ChunkSlots): (SlotValues | undefined)[] {
  return Array.from({ length: STORE_CHUNK_BLOCKS }, (_, slot) =>
    slots.isHeld(slot)
      ? {
          baseFeeWei: slots.baseFeesWei[slot]!,
          gasUsedParts: slots.gasUsedParts[slot] === UNKNOWN_GAS_USED ? undefined : slots.gasUsedParts[slot],
          blobBaseFeeWei: slots.blobBaseFeesWei[slot] === UNKNOWN_BLOB_BASE_FEE ? undefined : slots.blobBaseFeesWei[slot],
          timestamp: Number.isNaN(slots.timestamps[slot]) ? undefined : slots.timestamps[slot],
        }
      : undefined,
  );
}

test("every chunk decodes to exactly what was encoded: fees to the wei, unknown fields unknown, anchors where they were", () => {
  fc.assert(
    fc.property(
      chunkContents.filter((contents) => contents.some((values) => values !== undefined)),
      (contents) => {
        const slots = slotsOf(contents);
        const decoded = new ChunkSlots();
        decodeChunk(encodeChunk(slots), slots.heldMask(), decoded);
        // fast-check's records have no prototype; the decoded ones are plain objects.
        assert.deepEqual(
          contentsOf(decoded),
          contents.map((values) => values && { ...values }),
        );
        assert.equal(decoded.heldMask(), slots.heldMask());
      },
    ),
    { numRuns: 500 },
  );
});

test("a full chunk of mainnet-sized fees takes 6 bytes a block, and a full held mask is -1 (one byte in SQLite)", () => {
  const slots = slotsOf(
    Array.from({ length: STORE_CHUNK_BLOCKS }, (_, slot) => ({
      baseFeeWei: 15_000_000_000n + BigInt(slot),
      gasUsedParts: undefined,
      blobBaseFeeWei: undefined,
      timestamp: undefined,
    })),
  );
  assert.equal(encodeChunk(slots).length, 6 + STORE_CHUNK_BLOCKS * 5);
  assert.equal(slots.heldMask(), -1n);
  // Fees up to 281,474 Gwei fit 6 bytes; a ratio adds 2 bytes a block and an anchor 1 + its delta's width.
  slots.baseFeesWei[0] = 281_474_976_710_655n;
  slots.gasUsedParts.fill(5_000);
  slots.timestamps.forEach((_, slot) => (slots.timestamps[slot] = 1_700_000_000 + 12 * slot));
  assert.equal(encodeChunk(slots).length, 6 + STORE_CHUNK_BLOCKS * (6 + 2) + 4 + STORE_CHUNK_BLOCKS * (1 + 2));
});

test("a record that does not match its held mask, or holds impossible values, is refused as damaged, never misread", () => {
  const slots = slotsOf(
    Array.from({ length: STORE_CHUNK_BLOCKS }, (_, slot) =>
      slot < 10 ? { baseFeeWei: 7n, gasUsedParts: 1, blobBaseFeeWei: 1n, timestamp: 100 + slot } : undefined,
    ),
  );
  const record = encodeChunk(slots);
  const mask = slots.heldMask();
  const into = new ChunkSlots();
  const refused = (bytes: Uint8Array, heldMask = mask) => assert.throws(() => decodeChunk(bytes, heldMask, into), ChunkFormatError);
  refused(record, mask | (1n << 20n)); // one block more held than recorded
  refused(record, 0n);
  refused(record.subarray(0, record.length - 1));
  refused(new Uint8Array([...record, 0]));
  refused(new Uint8Array([2, ...record.subarray(1)])); // an unknown format
  refused(new Uint8Array([1, 0, ...record.subarray(2)])); // a zero-width base fee
  const reversedAnchors = record.slice();
  const anchorsAt = record.length - 10 * 2; // 10 slots then 10 one-byte deltas
  [reversedAnchors[anchorsAt], reversedAnchors[anchorsAt + 1]] = [reversedAnchors[anchorsAt + 1]!, reversedAnchors[anchorsAt]!];
  refused(reversedAnchors);
  const hugeFee = slotsOf([{ baseFeeWei: 2n ** 63n - 1n, gasUsedParts: undefined, blobBaseFeeWei: undefined, timestamp: undefined }]);
  const hugeRecord = encodeChunk(hugeFee);
  hugeRecord[6 + 7] = 0x80; // the top bit of an 8-byte fee: 2^63 or more
  refused(hugeRecord, 1n);
});

test("decoding arbitrary bytes either fails as a damaged record or yields values within bounds, never anything else", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 700 }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (bytes, mask) => {
      const into = new ChunkSlots();
      try {
        decodeChunk(bytes, mask, into);
      } catch (error) {
        assert.ok(error instanceof ChunkFormatError, String(error));
        return;
      }
      for (let slot = 0; slot < STORE_CHUNK_BLOCKS; slot++) {
        if (!into.isHeld(slot)) continue;
        assert.ok(into.baseFeesWei[slot]! < 2n ** 63n);
        assert.ok(into.blobBaseFeesWei[slot]! >= -1n);
        const timestamp = into.timestamps[slot]!;
        assert.ok(Number.isNaN(timestamp) || (Number.isInteger(timestamp) && timestamp >= 0 && timestamp < 2 ** 32));
      }
    }),
    { numRuns: 2_000 },
  );
});
