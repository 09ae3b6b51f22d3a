/**
 * The blob base fee's update rule (EIP-4844) with the reserve price of EIP-7918 (Fusaka): what a chain's blob base fee
 * is, given its parent block's excess blob gas, blob gas used and execution base fee. Pure bigint arithmetic, as the
 * execution clients compute it; used to draw the reserve-price floor and by the test and demo chains that serve blob
 * fees of their own.
 */

/** Blob gas per blob (2^17). */
export const GAS_PER_BLOB = 131_072n;
/** EIP-7918's BLOB_BASE_COST (2^13): the execution gas a blob is priced at, at least. */
export const BLOB_BASE_COST = 8_192n;
/** EIP-4844's MIN_BASE_FEE_PER_BLOB_GAS. */
export const MIN_BLOB_BASE_FEE_WEI = 1n;

/** A fork's blob schedule (eth_config's blobSchedule): target and maximum blobs per block, and the update fraction. */
export interface BlobSchedule {
  readonly target: number;
  readonly max: number;
  readonly baseFeeUpdateFraction: bigint;
}

/** Mainnet's schedules by fork (EIP-7691 Prague, EIP-7892 blob-parameter-only forks BPO1 and BPO2 after Osaka). */
export const BLOB_SCHEDULES = {
  cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3_338_477n },
  prague: { target: 6, max: 9, baseFeeUpdateFraction: 5_007_716n },
  osaka: { target: 6, max: 9, baseFeeUpdateFraction: 5_007_716n },
  bpo1: { target: 10, max: 15, baseFeeUpdateFraction: 8_346_193n },
  bpo2: { target: 14, max: 21, baseFeeUpdateFraction: 11_684_671n },
} as const satisfies Record<string, BlobSchedule>;

/**
 * The blob schedule in force on chains whose schedule is known (their newest fork's, BPO2 since January 2026 on
 * Ethereum and its testnets), for where the endpoint does not answer eth_config; other chains get mainnet's.
 */
const KNOWN_BLOB_SCHEDULES: Readonly<Record<number, BlobSchedule>> = {
  1: BLOB_SCHEDULES.bpo2,
  11_155_111: BLOB_SCHEDULES.bpo2,
  560_048: BLOB_SCHEDULES.bpo2,
  17_000: BLOB_SCHEDULES.bpo2,
};

/** The blob schedule a chain's blocks follow now, as far as known without asking its endpoint. */
export function knownBlobSchedule(chainId: number): BlobSchedule {
  return KNOWN_BLOB_SCHEDULES[chainId] ?? BLOB_SCHEDULES.bpo2;
}

/** EIP-4844's fake_exponential: factor * e^(numerator / denominator), in integers, as the specification writes it. */
export function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let i = 1n;
  let output = 0n;
  let accumulator = factor * denominator;
  while (accumulator > 0n) {
    output += accumulator;
    accumulator = (accumulator * numerator) / (denominator * i);
    i += 1n;
  }
  return output / denominator;
}

/** The blob base fee of a block with `excessBlobGas` (EIP-4844's get_base_fee_per_blob_gas). */
export function blobBaseFeeOf(excessBlobGas: bigint, schedule: BlobSchedule): bigint {
  return fakeExponential(MIN_BLOB_BASE_FEE_WEI, excessBlobGas, schedule.baseFeeUpdateFraction);
}

/**
 * EIP-7918's reserve price per blob gas implied by an execution base fee: a blob costs at least BLOB_BASE_COST
 * execution gas, so below `baseFee * BLOB_BASE_COST / GAS_PER_BLOB` the blob base fee only rises (the floor line).
 */
export function blobReservePriceWei(baseFeeWei: bigint): bigint {
  return (baseFeeWei * BLOB_BASE_COST) / GAS_PER_BLOB;
}

/** A parent block, as the rule reads it. */
export interface BlobParent {
  readonly excessBlobGas: bigint;
  readonly blobGasUsed: bigint;
  readonly baseFeeWei: bigint;
}

/**
 * The excess blob gas of the child of `parent` (EIP-7918's calc_excess_blob_gas): while the parent's blob base fee was
 * below the reserve price, the excess grows by the blob gas used scaled down (it never falls), else as EIP-4844 says.
 */
export function nextExcessBlobGas(parent: BlobParent, schedule: BlobSchedule): bigint {
  const target = BigInt(schedule.target) * GAS_PER_BLOB;
  if (parent.excessBlobGas + parent.blobGasUsed < target) return 0n;
  if (BLOB_BASE_COST * parent.baseFeeWei > GAS_PER_BLOB * blobBaseFeeOf(parent.excessBlobGas, schedule)) {
    return parent.excessBlobGas + (parent.blobGasUsed * BigInt(schedule.max - schedule.target)) / BigInt(schedule.max);
  }
  return parent.excessBlobGas + parent.blobGasUsed - target;
}
