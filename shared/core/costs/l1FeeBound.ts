// The most an OP-stack L1 data fee can be, from the oracle's own inputs: an answer above it is refused (CONTRACT.md,
// "Costs in money"). The GasPriceOracle (contracts-bedrock, src/L2/GasPriceOracle.sol) charges, with
// feeScaled = baseFeeScalar x 16 x l1BaseFee + blobBaseFeeScalar x blobBaseFee:
// - Ecotone: calldataGas x feeScaled / (16 x 10^6), calldataGas at most 16 a byte of the signed transaction;
// - Fjord: max(100 x 10^6, 836,500 x fastLzSize - 42,585,600) x feeScaled / 10^12, the FastLZ size at most the signed
//   size + size / 255 + 16 (the oracle's own getL1FeeUpperBound).
// Both are at most max(100, size + size / 255 + 16) x feeScaled / 10^6; the bound doubles that, for the L1 base fee
// moving between the calls of one batch (at most 12.5% a block) and for rounding.

/** What the oracle charges with, read in the same batch as the fees. */
export interface OpStackL1Inputs {
  readonly l1BaseFee: bigint;
  readonly blobBaseFee: bigint;
  readonly baseFeeScalar: bigint;
  readonly blobBaseFeeScalar: bigint;
}

/** Headroom over the formula's own maximum. */
const HEADROOM = 2n;

/** The most the L1 fee of a signed transaction of `txBytes` can be, in wei. */
export function opStackL1FeeBound(txBytes: number, inputs: OpStackL1Inputs): bigint {
  const size = BigInt(Math.max(0, txBytes));
  const estimated = size + size / 255n + 16n;
  const bytes = estimated > 100n ? estimated : 100n;
  const feeScaled = inputs.baseFeeScalar * 16n * inputs.l1BaseFee + inputs.blobBaseFeeScalar * inputs.blobBaseFee;
  return (HEADROOM * bytes * feeScaled) / 1_000_000n;
}

/** Why `fee` for `txBytes` cannot be the oracle's (a sentence without its full stop), or undefined when it can. */
export function opStackL1FeeProblem(txBytes: number, fee: bigint, inputs: OpStackL1Inputs): string | undefined {
  const bound = opStackL1FeeBound(txBytes, inputs);
  if (fee <= bound) return undefined;
  return (
    `its L1 fee of ${fee} wei for ${txBytes} bytes is more than its L1 base fee (${inputs.l1BaseFee} wei), ` +
    `blob base fee (${inputs.blobBaseFee} wei) and scalars explain (at most ${bound} wei)`
  );
}
