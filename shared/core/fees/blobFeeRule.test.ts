import assert from "node:assert/strict";
import { test } from "node:test";
import { BLOB_SCHEDULES, blobBaseFeeOf, blobReservePriceWei, fakeExponential, GAS_PER_BLOB, nextExcessBlobGas } from "./blobFeeRule.ts";

const PRAGUE = BLOB_SCHEDULES.prague;

test("fake_exponential: the specification's integer approximation of factor * e^(n/d)", () => {
  assert.equal(fakeExponential(1n, 0n, 1n), 1n);
  assert.equal(fakeExponential(38_493n, 0n, 1_000n), 38_493n);
  assert.equal(fakeExponential(1n, 2n, 1n), 6n); // e^2 = 7.39, rounded down by the series' integer steps
  assert.equal(fakeExponential(1n, 4n, 2n), 6n);
  assert.equal(fakeExponential(2n, 5n, 2n), 23n);
});

test("the blob base fee is 1 wei at no excess, and e^100 at 100 update fractions of excess", () => {
  assert.equal(blobBaseFeeOf(0n, PRAGUE), 1n);
  const excess = 100n * PRAGUE.baseFeeUpdateFraction;
  const fee = blobBaseFeeOf(excess, PRAGUE);
  assert.ok(fee > 2n ** 143n && fee < 2n ** 145n, String(fee)); // e^100 = 2^144.27
});

test("excess blob gas: EIP-4844 above the reserve price, EIP-7918's slower growth below it", () => {
  const target = BigInt(PRAGUE.target) * GAS_PER_BLOB;
  const full = BigInt(PRAGUE.max) * GAS_PER_BLOB;
  // No excess and under the target: none.
  assert.equal(nextExcessBlobGas({ excessBlobGas: 0n, blobGasUsed: target - 1n, baseFeeWei: 0n }, PRAGUE), 0n);
  // Above the reserve price (execution base fee 0): the excess grows by what is used beyond the target.
  assert.equal(nextExcessBlobGas({ excessBlobGas: 10n * GAS_PER_BLOB, blobGasUsed: full, baseFeeWei: 0n }, PRAGUE), 13n * GAS_PER_BLOB);
  assert.equal(nextExcessBlobGas({ excessBlobGas: 10n * GAS_PER_BLOB, blobGasUsed: 0n, baseFeeWei: 0n }, PRAGUE), 4n * GAS_PER_BLOB);
  // Below the reserve price (a 100 gwei execution base fee, a 1 wei blob base fee): it grows by used * (max - target) / max.
  assert.equal(nextExcessBlobGas({ excessBlobGas: 10n * GAS_PER_BLOB, blobGasUsed: full, baseFeeWei: 100_000_000_000n }, PRAGUE), 13n * GAS_PER_BLOB);
  assert.equal(nextExcessBlobGas({ excessBlobGas: 10n * GAS_PER_BLOB, blobGasUsed: 0n, baseFeeWei: 100_000_000_000n }, PRAGUE), 10n * GAS_PER_BLOB);
  assert.equal(blobReservePriceWei(16_000_000_000n), 1_000_000_000n);
});
