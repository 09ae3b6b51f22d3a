import { REWARD_PERCENTILES } from "../core/fees/recentTips.ts";
import { MalformedRpcResponseError, RpcEndpointError } from "./errors.ts";
import { parseFeeHistory, type FeeHistoryAnswer } from "./parseRpcAnswers.ts";
import type { RpcConnection } from "./rpcConnection.ts";

/** What an endpoint taught us about its `eth_feeHistory` block-count limit (kept per endpoint by its pool, across calls). */
export interface FeeHistoryLimit {
  /** The most blocks one request may ask for; Infinity until the endpoint refuses or truncates a request. */
  readonly maxBlocks: number;
  /** Records that the endpoint serves at most `maxBlocks` blocks per request (it refused or truncated a larger one). */
  lower(maxBlocks: number): void;
}

/** What fetching base fees needs of a connection. */
type FeeHistoryConnection = Pick<RpcConnection, "request" | "redactedUrl">;

export interface FetchBaseFeesRequest {
  /** Fetch back to this block (inclusive) at least... */
  readonly fromBlock?: bigint;
  /** ...but never more than this many blocks, ending at the chain's head. */
  readonly maxBlocks: number;
  /** Blocks to ask for in the first request (ending at "latest"); more requests follow if the answer does not reach `fromBlock`. */
  readonly firstRequestBlocks: number;
}

/** Matches the errors nodes and providers give when a block count or range is too large. */
const TOO_MANY_BLOCKS = /exceed|too (many|large|big|wide|long)|range|max(imum)?[ _-]?(block|count|of)|limit(ed)? (to|of|is)|block ?count|at most|larger than/i;

/** A refusal of the request's size (not of the request itself): worth retrying with fewer blocks. */
export function isTooManyBlocksError(error: unknown): boolean {
  if (!(error instanceof RpcEndpointError)) return false;
  if (error.httpStatus === 429 || (error.httpStatus !== undefined && error.httpStatus >= 500)) return false;
  if (error.reason === "timed out") return false;
  return TOO_MANY_BLOCKS.test(error.reason);
}

/** A count the error message names below `asked` (e.g. "exceeds the maximum of 128 blocks"), else half of `asked`. */
function smallerCount(error: RpcEndpointError, asked: number): number {
  const named = (error.reason.match(/\d+/g) ?? []).map(Number).filter((n) => Number.isSafeInteger(n) && n >= 1 && n < asked);
  return named.length > 0 ? Math.max(...named) : Math.max(1, Math.floor(asked / 2));
}

/**
 * One `eth_feeHistory` call for up to `blocks` blocks ending at `newestBlock`, shrinking the request (and
 * remembering the endpoint's limit) while the endpoint refuses its size. Asks for the tips at REWARD_PERCENTILES
 * when the call ends at the chain's head (older blocks' tips are not needed).
 */
export async function feeHistory(connection: FeeHistoryConnection, blocks: number, newestBlock: bigint | "latest", limit: FeeHistoryLimit): Promise<FeeHistoryAnswer> {
  const withRewards = newestBlock === "latest";
  let asked = Math.max(1, Math.min(blocks, limit.maxBlocks));
  for (;;) {
    const newest = newestBlock === "latest" ? "latest" : `0x${newestBlock.toString(16)}`;
    try {
      const answer = await connection.request("eth_feeHistory", [`0x${asked.toString(16)}`, newest, withRewards ? [...REWARD_PERCENTILES] : []]);
      return parseFeeHistory(answer, asked, newestBlock, connection.redactedUrl, withRewards);
    } catch (error) {
      if (asked > 1 && error instanceof RpcEndpointError && isTooManyBlocksError(error)) {
        asked = smallerCount(error, asked);
        limit.lower(asked);
        continue;
      }
      throw error;
    }
  }
}

/**
 * The base fees of the newest blocks, oldest first: one request when the endpoint allows it, otherwise
 * consecutive requests walking backwards, each ending right before the previous one's oldest block.
 * Splits when the endpoint refuses a size or answers fewer blocks than asked (both remembered in `limit`).
 */
export async function fetchBaseFees(connection: FeeHistoryConnection, request: FetchBaseFeesRequest, limit: FeeHistoryLimit): Promise<FeeHistoryAnswer> {
  const first = await feeHistory(connection, Math.min(request.firstRequestBlocks, request.maxBlocks), "latest", limit);
  const newestBlock = first.oldestBlock + BigInt(first.baseFeesWei.length - 1);
  const asked = Math.min(request.firstRequestBlocks, request.maxBlocks, limit.maxBlocks);
  // Fewer blocks than asked, yet not down to the genesis: the endpoint truncates to its own limit.
  if (first.baseFeesWei.length < asked && first.oldestBlock > 0n) limit.lower(first.baseFeesWei.length);

  const floor = newestBlock - BigInt(request.maxBlocks) + 1n;
  let target = request.fromBlock ?? floor;
  if (target < floor) target = floor;
  if (target < 0n) target = 0n;

  const chunks: (readonly bigint[])[] = [first.baseFeesWei];
  let oldest = first.oldestBlock;
  while (oldest > target) {
    const wanted = Number(oldest - target);
    const chunk = await feeHistory(connection, wanted, oldest - 1n, limit);
    if (chunk.baseFeesWei.length < Math.min(wanted, limit.maxBlocks) && chunk.oldestBlock > 0n) limit.lower(chunk.baseFeesWei.length);
    if (chunk.oldestBlock + BigInt(chunk.baseFeesWei.length) !== oldest) {
      throw new MalformedRpcResponseError(connection.redactedUrl, "eth_feeHistory", `blocks ${chunk.oldestBlock}.. do not end right before block ${oldest}`);
    }
    chunks.unshift(chunk.baseFeesWei);
    oldest = chunk.oldestBlock;
  }
  let baseFeesWei = chunks.flat();
  // The first answer may reach further back than needed (a generous poll): keep at most maxBlocks.
  if (baseFeesWei.length > request.maxBlocks) {
    const excess = baseFeesWei.length - request.maxBlocks;
    baseFeesWei = baseFeesWei.slice(excess);
    oldest += BigInt(excess);
  }
  return { oldestBlock: oldest, baseFeesWei, nextBaseFeeWei: first.nextBaseFeeWei, ...(first.tips ? { tips: first.tips } : {}) };
}
