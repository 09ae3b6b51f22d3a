import assert from "node:assert/strict";
import { test } from "node:test";
import { opStackL1FeeBound, opStackL1FeeProblem, type OpStackL1Inputs } from "./l1FeeBound.ts";

// Base's values on a busy day: 31 Gwei L1 base fee, 1 wei blob base fee, Base's scalars.
const INPUTS: OpStackL1Inputs = { l1BaseFee: 31_000_000_000n, blobBaseFee: 1n, baseFeeScalar: 1368n, blobBaseFeeScalar: 810_949n };
const feeScaled = (inputs: OpStackL1Inputs) => inputs.baseFeeScalar * 16n * inputs.l1BaseFee + inputs.blobBaseFeeScalar * inputs.blobBaseFee;

/** GasPriceOracle's Ecotone fee of a signed transaction of `size` non-zero bytes (calldata gas 16 a byte). */
const ecotone = (size: number, inputs: OpStackL1Inputs) => (16n * BigInt(size) * feeScaled(inputs)) / 16_000_000n;
/** Its Fjord fee at the FastLZ upper bound of a signed transaction of `size` bytes. */
const fjord = (size: number, inputs: OpStackL1Inputs) => {
  const flz = BigInt(size) + BigInt(size) / 255n + 16n;
  const estimated = 836_500n * flz - 42_585_600n;
  return ((estimated > 100_000_000n ? estimated : 100_000_000n) * feeScaled(inputs)) / 1_000_000_000_000n;
};

test("the bound holds the oracle's own Ecotone and Fjord fees for every size, with room, and not 1,000 times them", () => {
  for (const size of [0, 68, 110, 118, 211, 420, 5_000, 120_000]) {
    const bound = opStackL1FeeBound(size, INPUTS);
    for (const fee of [ecotone(size, INPUTS), fjord(size, INPUTS)]) {
      assert.ok(fee <= bound, `${size} bytes: ${fee} within ${bound}`);
      assert.equal(opStackL1FeeProblem(size, fee, INPUTS), undefined);
    }
    assert.ok(ecotone(size, INPUTS) * 1000n > bound || size === 0, `${size} bytes: a fee 1,000 times the oracle's is above ${bound}`);
  }
});

test("a fee its inputs cannot explain is said, with the inputs and the bound", () => {
  const problem = opStackL1FeeProblem(118, 10n ** 21n, INPUTS);
  assert.match(problem ?? "", /^its L1 fee of 1000000000000000000000 wei for 118 bytes is more than its L1 base fee \(31000000000 wei\)/);
  assert.match(problem ?? "", /\(at most \d+ wei\)$/);
  assert.match(opStackL1FeeProblem(118, 1n, { l1BaseFee: 0n, blobBaseFee: 0n, baseFeeScalar: 0n, blobBaseFeeScalar: 0n }) ?? "", /more than/);
});
