import { blockTipsOf, REWARD_PERCENTILES, type BlockTips } from "../../core/fees/recentTips.ts";
import { MalformedRpcResponseError } from "./errors.ts";

/** Nothing real comes near these; an answer beyond them is garbage, not data. */
export const MAX_BLOCK_NUMBER = 2n ** 53n;
/**
 * 2^63 - 1 wei (9.2 ETH per gas, millions of times mainnet's highest base fee ever): the largest fee SQLite's signed
 * 64-bit INTEGER holds, so that the history stores every fee the feed accepts exactly.
 */
export const MAX_BASE_FEE_WEI = 2n ** 63n - 1n;

/** Far above any chain's real ratio (Arbitrum's reach a few), far below what would overflow anything. */
const MAX_GAS_USED_RATIO = 1_000;

/** `0x`-prefixed hex digits (leading zeros tolerated: some nodes send them), at most 256 bits. */
const QUANTITY = /^0x[0-9a-f]{1,64}$/i;

/** A JSON-RPC QUANTITY within `max`; anything else is garbage. */
export function parseQuantity(value: unknown, max: bigint, what: string, url: string, method: string): bigint {
  if (typeof value !== "string" || !QUANTITY.test(value)) {
    throw new MalformedRpcResponseError(url, method, `${what} is ${describe(value)}, not a hex quantity`);
  }
  const parsed = BigInt(value);
  if (parsed > max) throw new MalformedRpcResponseError(url, method, `${what} ${parsed} is beyond ${max}`);
  return parsed;
}

/** An `eth_chainId` answer (a hex quantity); not the API path's decimal chain id (http/chainOfPath.ts's parsePathChainId). */
export function parseRpcChainId(value: unknown, url: string): number {
  return Number(parseQuantity(value, MAX_BLOCK_NUMBER, "the chain id", url, "eth_chainId"));
}

export interface LatestBlock {
  readonly number: bigint;
  /** Undefined on a chain without EIP-1559 (the block carries no baseFeePerGas). */
  readonly baseFeePerGas: bigint | undefined;
}

export function parseLatestBlock(value: unknown, url: string): LatestBlock {
  const method = "eth_getBlockByNumber";
  if (!isObject(value)) throw new MalformedRpcResponseError(url, method, `the block is ${describe(value)}, not an object`);
  const number = parseQuantity(value.number, MAX_BLOCK_NUMBER, "the block number", url, method);
  const fee = value.baseFeePerGas;
  return { number, baseFeePerGas: fee === undefined || fee === null ? undefined : parseQuantity(fee, MAX_BASE_FEE_WEI, "baseFeePerGas", url, method) };
}

/** A block's header as far as the history needs it: its number, its timestamp and its base fee. */
export interface BlockHeader {
  readonly number: bigint;
  /** Unix seconds. */
  readonly timestamp: number;
  readonly baseFeePerGas: bigint | undefined;
}

/** Timestamps beyond this (the year 2^33 s, about 2242) are garbage, not time. */
export const MAX_TIMESTAMP_SECONDS = 2n ** 33n;

/** An `eth_getBlockByNumber(n, false)` answer read for its number, timestamp and base fee; null (no such block) is garbage here. */
export function parseBlockHeader(value: unknown, url: string): BlockHeader {
  const block = parseLatestBlock(value, url);
  const timestamp = parseQuantity((value as Record<string, unknown>).timestamp, MAX_TIMESTAMP_SECONDS, "the block's timestamp", url, "eth_getBlockByNumber");
  return { ...block, timestamp: Number(timestamp) };
}

/** The base fees of consecutive mined blocks, and the next block's when the answer ends at the chain's head. */
export interface FeeHistoryAnswer {
  readonly oldestBlock: bigint;
  /** One per mined block, oldest first (at least one). */
  readonly baseFeesWei: readonly bigint[];
  /** The extra last element: the base fee of the block after the newest. */
  readonly nextBaseFeeWei: bigint | undefined;
  /** Per block, the tips at REWARD_PERCENTILES, when they were asked for and the endpoint gave them. */
  readonly tips?: readonly BlockTips[];
  /** Per block, its gas-used ratio (usually its share of the gas limit, 0..1; above 1 on Arbitrum); parseFeeHistory always reads them. */
  readonly gasUsedRatios?: readonly number[];
  /** Per block, its blob base fee (EIP-4844), when the endpoint gave them (`baseFeePerBlobGas`). */
  readonly blobBaseFeesWei?: readonly bigint[];
  /** The blob base fee of the block after the newest (the extra last element of `baseFeePerBlobGas`), when given. */
  readonly nextBlobBaseFeeWei?: bigint;
  /** Per block, its blob gas used over the block's blob gas maximum (0..1), when the endpoint gave them (`blobGasUsedRatio`). */
  readonly blobGasUsedRatios?: readonly number[];
  /**
   * What was wrong with the answer's blob fields, when one was malformed or out of range: they are all left out (the
   * blob fields of these blocks are not known), and the base fees stand.
   */
  readonly blobProblem?: string;
}

/**
 * Checks an `eth_feeHistory` answer to a request for `requestedBlocks` blocks ending at `newestBlock`
 * (a number, or "latest"). It may hold fewer blocks than asked (a young chain, or an endpoint's cap), never more.
 * Reads each block's gas-used ratio (0..1000: above 1 on some chains) and, when the answer has them, its blob base fee (`baseFeePerBlobGas`, the
 * same length as `baseFeePerGas`, the same bounds) and blob gas used ratio. A malformed or out-of-range blob field costs
 * the answer its blob fields (said in `blobProblem`), never its base fees.
 * With `withRewards` (the request asked for REWARD_PERCENTILES), a `reward` array is read into `tips`; an endpoint
 * that leaves it out is not wrong about the base fees, so its answer simply has no tips, but a malformed one is garbage.
 */
export function parseFeeHistory(value: unknown, requestedBlocks: number, newestBlock: bigint | "latest", url: string, withRewards = false): FeeHistoryAnswer {
  const method = "eth_feeHistory";
  const fail = (problem: string) => new MalformedRpcResponseError(url, method, problem);
  if (!isObject(value)) throw fail(`the answer is ${describe(value)}, not an object`);
  const oldestBlock = parseQuantity(value.oldestBlock, MAX_BLOCK_NUMBER, "oldestBlock", url, method);
  const fees = value.baseFeePerGas;
  const ratios = value.gasUsedRatio;
  if (!Array.isArray(fees)) throw fail(`baseFeePerGas is ${describe(fees)}, not an array`);
  if (!Array.isArray(ratios)) throw fail(`gasUsedRatio is ${describe(ratios)}, not an array`);
  const blocks = ratios.length;
  if (blocks < 1) throw fail("it holds no block");
  if (blocks > requestedBlocks) throw fail(`it holds ${blocks} blocks where ${requestedBlocks} were asked`);
  if (fees.length !== blocks + 1 && fees.length !== blocks) {
    throw fail(`baseFeePerGas has ${fees.length} elements for ${blocks} blocks (expected ${blocks + 1})`);
  }
  ratios.forEach((ratio: unknown, i) => {
    // Usually 0..1 (gas used over the limit), but above 1 on chains that define it otherwise (Arbitrum: gas per second
    // over its target; Filecoin: a tipset's blocks summed): informational, so only a negative or absurd one is garbage.
    if (typeof ratio !== "number" || !(ratio >= 0 && ratio <= MAX_GAS_USED_RATIO)) {
      throw fail(`gasUsedRatio[${i}] is ${describe(ratio)}, not a number from 0 to ${MAX_GAS_USED_RATIO}`);
    }
  });
  const parsed = fees.map((fee, i) => parseQuantity(fee, MAX_BASE_FEE_WEI, `baseFeePerGas[${i}]`, url, method));
  const newest = oldestBlock + BigInt(blocks - 1);
  if (newestBlock !== "latest" && newest !== newestBlock) {
    throw fail(`it ends at block ${newest} where block ${newestBlock} was asked`);
  }
  const blob = parseBlobFields(value, blocks, url);
  const answer = {
    oldestBlock,
    baseFeesWei: parsed.slice(0, blocks),
    nextBaseFeeWei: parsed[blocks],
    gasUsedRatios: Object.freeze([...(ratios as number[])]),
    ...blob,
  };
  if (!withRewards || value.reward === undefined || value.reward === null) return answer;
  const rewards = value.reward;
  if (!Array.isArray(rewards)) throw fail(`reward is ${describe(rewards)}, not an array`);
  if (rewards.length !== blocks) throw fail(`reward has ${rewards.length} rows for ${blocks} blocks`);
  const tips = rewards.map((row: unknown, i) => {
    if (!Array.isArray(row) || row.length !== REWARD_PERCENTILES.length) {
      throw fail(`reward[${i}] is ${describe(row)}, not ${REWARD_PERCENTILES.length} quantities`);
    }
    return blockTipsOf(
      oldestBlock + BigInt(i),
      row.map((tip, j) => parseQuantity(tip, MAX_BASE_FEE_WEI, `reward[${i}][${j}]`, url, method)),
    );
  });
  return { ...answer, tips };
}

/**
 * The answer's blob fields: its blob base fees (and the next block's) and blob gas used ratios when it has them, or,
 * when one of them is malformed or out of range, none of them and why. A blob field never refuses the answer: an
 * endpoint's blob fields (a rollup's hold no blob market, and since Jovian an OP-stack `blobGasUsed` is a
 * data-availability footprint, its ratio above 1) are no reason to doubt its base fees.
 */
function parseBlobFields(
  value: Record<string, unknown>,
  blocks: number,
  url: string,
): Pick<FeeHistoryAnswer, "blobBaseFeesWei" | "nextBlobBaseFeeWei" | "blobGasUsedRatios" | "blobProblem"> {
  try {
    const blobFees = parseBlobBaseFees(value.baseFeePerBlobGas, blocks, url);
    const blobGasUsedRatios = blobFees ? parseBlobGasUsedRatios(value.blobGasUsedRatio, blocks, url) : undefined;
    return {
      ...(blobFees ? { blobBaseFeesWei: blobFees.perBlock } : {}),
      ...(blobFees?.next !== undefined ? { nextBlobBaseFeeWei: blobFees.next } : {}),
      ...(blobGasUsedRatios ? { blobGasUsedRatios } : {}),
    };
  } catch (error) {
    if (!(error instanceof MalformedRpcResponseError)) throw error;
    return { blobProblem: error.problem };
  }
}

/**
 * The blob base fees of `blocks` mined blocks and, when given, the next block's; undefined when absent. Bounded as the
 * base fees are (below 2^63 wei: what the history and its store hold); a hostile value throws.
 */
function parseBlobBaseFees(value: unknown, blocks: number, url: string): { perBlock: readonly bigint[]; next: bigint | undefined } | undefined {
  const method = "eth_feeHistory";
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new MalformedRpcResponseError(url, method, `baseFeePerBlobGas is ${describe(value)}, not an array`);
  if (value.length !== blocks + 1 && value.length !== blocks) {
    throw new MalformedRpcResponseError(url, method, `baseFeePerBlobGas has ${value.length} elements for ${blocks} blocks (expected ${blocks + 1})`);
  }
  const fees = value.map((fee: unknown, i) => parseQuantity(fee, MAX_BASE_FEE_WEI, `baseFeePerBlobGas[${i}]`, url, method));
  return { perBlock: Object.freeze(fees.slice(0, blocks)), next: fees[blocks] };
}

/**
 * Each block's blob gas used ratio (`blobGasUsedRatio`: blob gas used over the block's maximum, so 0..1), one per
 * mined block; undefined when absent (the blob base fees stand without it). Anything else throws.
 */
function parseBlobGasUsedRatios(value: unknown, blocks: number, url: string): readonly number[] | undefined {
  const fail = (problem: string) => new MalformedRpcResponseError(url, "eth_feeHistory", problem);
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw fail(`blobGasUsedRatio is ${describe(value)}, not an array`);
  if (value.length !== blocks) throw fail(`blobGasUsedRatio has ${value.length} elements for ${blocks} blocks`);
  value.forEach((ratio: unknown, i) => {
    if (typeof ratio !== "number" || !(ratio >= 0 && ratio <= 1)) throw fail(`blobGasUsedRatio[${i}] is ${describe(ratio)}, not a number from 0 to 1`);
  });
  return Object.freeze([...(value as number[])]);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  // JSON.stringify gives undefined for what JSON cannot hold (a function, a symbol): named by its type instead.
  const text = typeof value === "string" ? JSON.stringify(value) : value === undefined ? "missing" : (JSON.stringify(value) ?? `a ${typeof value}`);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
