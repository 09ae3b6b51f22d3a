// The transaction an L1 data fee is asked for: the oracles price bytes, so a stand-in of the action's size is enough.

/** Bytes the OP-stack GasPriceOracle adds for the signature (getL1Fee takes the unsigned transaction). */
export const OP_SIGNATURE_BYTES = 68;

/**
 * The unsigned stand-in of a signed transaction of `txBytes` bytes, for the OP-stack GasPriceOracle's `getL1Fee`:
 * `txBytes` - 68 bytes (the oracle adds 68 for the signature) of non-zero bytes that do not compress (a signed
 * transaction's hashes and signature do not), so the fee is that of a real transaction of that size or a little more.
 */
export function opStackStandInTx(txBytes: number): `0x${string}` {
  const length = Math.max(0, txBytes - OP_SIGNATURE_BYTES);
  let state = 0x9e3779b9;
  let hex = "";
  for (let index = 0; index < length; index += 1) {
    // xorshift32: deterministic, and incompressible to FastLZ (Fjord's estimate) and to the zero-byte count (Ecotone's).
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    hex += ((state % 255) + 1).toString(16).padStart(2, "0");
  }
  return `0x${hex}`;
}
