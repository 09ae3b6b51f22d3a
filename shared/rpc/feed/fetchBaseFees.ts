import { REWARD_PERCENTILES } from "../../core/fees/recentTips.ts";
import type { BlockAnchor } from "../../core/history/blockAnchor.ts";
import { MalformedRpcResponseError, RpcEndpointError } from "../connection/errors.ts";
import { headerAnchor } from "./headerAnchor.ts";
import { parseFeeHistory, type FeeHistoryAnswer } from "../connection/parseRpcAnswers.ts";
import type { RpcConnection, RpcOutcome } from "../connection/rpcConnection.ts";

/** What an endpoint taught us about its `eth_feeHistory` block-count limit (kept per endpoint by its pool, across calls). */
export interface FeeHistoryLimit {
  /** The most blocks one request may ask for; Infinity until the endpoint refuses or truncates a request. */
  readonly maxBlocks: number;
  /** Records that the endpoint serves at most `maxBlocks` blocks per request (it refused or truncated a larger one). */
  lower(maxBlocks: number): void;
}

/** What fetching base fees needs of a connection: batches only to read a header with the fees. */
type FeeHistoryConnection = Pick<RpcConnection, "request" | "redactedUrl"> & Partial<Pick<RpcConnection, "requestBatch">>;

export interface FetchBaseFeesRequest {
  /** Fetch back to this block (inclusive) at least... */
  readonly fromBlock?: bigint;
  /** ...but never more than this many blocks, ending at the chain's head. */
  readonly maxBlocks: number;
  /** Blocks to ask for in the first request (ending at "latest"); more requests follow if the answer does not reach `fromBlock`. */
  readonly firstRequestBlocks: number;
  /**
   * Also read the newest block's header, for its timestamp, in the same HTTP request as the first `eth_feeHistory`
   * (a JSON-RPC batch of the two calls).
   */
  readonly withHeader?: boolean;
}

/** The base fees fetched, and what the first request's batch brought besides. */
export interface FetchedBaseFees extends FeeHistoryAnswer {
  /** The newest block's number and timestamp, when they were asked for and the endpoint answered them readably. */
  readonly header?: BlockAnchor;
  /**
   * The endpoint answered the batch with one error for both calls, and `eth_feeHistory` alone then succeeded: it takes
   * no batches (or not now). Its fees came without a header.
   */
  readonly batchRefused?: boolean;
}

const HEADER_CALL = { method: "eth_getBlockByNumber", params: ["latest", false] } as const;

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
 * when the call ends at the chain's head (older blocks' tips are not needed). `withHeader` sends it in one batch with
 * `eth_getBlockByNumber("latest")`; an endpoint that answers the batch with one error is asked for the fees alone.
 */
export async function feeHistory(
  connection: FeeHistoryConnection,
  blocks: number,
  newestBlock: bigint | "latest",
  limit: FeeHistoryLimit,
  withHeader = false,
): Promise<FetchedBaseFees> {
  const withRewards = newestBlock === "latest";
  let asked = Math.max(1, Math.min(blocks, limit.maxBlocks));
  let batched = withHeader && connection.requestBatch !== undefined;
  for (;;) {
    const newest = newestBlock === "latest" ? "latest" : `0x${newestBlock.toString(16)}`;
    const params = [`0x${asked.toString(16)}`, newest, withRewards ? [...REWARD_PERCENTILES] : []];
    try {
      if (!batched || connection.requestBatch === undefined) {
        const answer = parseFeeHistory(await connection.request("eth_feeHistory", params), asked, newestBlock, connection.redactedUrl, withRewards);
        return withHeader && connection.requestBatch !== undefined ? { ...answer, batchRefused: true } : answer;
      }
      const [headerOutcome, historyOutcome] = (await connection.requestBatch([HEADER_CALL, { method: "eth_feeHistory", params }])) as [RpcOutcome, RpcOutcome];
      if (!historyOutcome.ok) {
        if (!headerOutcome.ok && sameRefusal(headerOutcome.error, historyOutcome.error)) {
          // One error for the whole batch: ask for the fees alone. If that fails too, the endpoint fails, not the batch.
          batched = false;
          continue;
        }
        throw historyOutcome.error;
      }
      const answer = parseFeeHistory(historyOutcome.result, asked, newestBlock, connection.redactedUrl, withRewards);
      const header = headerOutcome.ok ? headerAnchor(headerOutcome.result, connection.redactedUrl) : undefined;
      return header === undefined ? answer : { ...answer, header };
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

/** Both calls of a batch failed with the same error: the endpoint answered the batch as a whole, not each call. */
function sameRefusal(a: Error, b: Error): boolean {
  return a instanceof RpcEndpointError && b instanceof RpcEndpointError && a.reason === b.reason && a.rpcCode === b.rpcCode;
}

/**
 * The base fees of the newest blocks, oldest first: one request when the endpoint allows it, otherwise
 * consecutive requests walking backwards, each ending right before the previous one's oldest block.
 * Splits when the endpoint refuses a size or answers fewer blocks than asked (both remembered in `limit`).
 */
export async function fetchBaseFees(connection: FeeHistoryConnection, request: FetchBaseFeesRequest, limit: FeeHistoryLimit): Promise<FetchedBaseFees> {
  const first = await feeHistory(connection, Math.min(request.firstRequestBlocks, request.maxBlocks), "latest", limit, request.withHeader);
  const newestBlock = first.oldestBlock + BigInt(first.baseFeesWei.length - 1);
  const asked = Math.min(request.firstRequestBlocks, request.maxBlocks, limit.maxBlocks);
  // Fewer blocks than asked, yet not down to the genesis: the endpoint truncates to its own limit.
  if (first.baseFeesWei.length < asked && first.oldestBlock > 0n) limit.lower(first.baseFeesWei.length);

  const floor = newestBlock - BigInt(request.maxBlocks) + 1n;
  let target = request.fromBlock ?? floor;
  if (target < floor) target = floor;
  if (target < 0n) target = 0n;

  const chunks: FeeHistoryAnswer[] = [first];
  let oldest = first.oldestBlock;
  while (oldest > target) {
    const wanted = Number(oldest - target);
    const chunk = await feeHistory(connection, wanted, oldest - 1n, limit);
    if (chunk.baseFeesWei.length < Math.min(wanted, limit.maxBlocks) && chunk.oldestBlock > 0n) limit.lower(chunk.baseFeesWei.length);
    if (chunk.oldestBlock + BigInt(chunk.baseFeesWei.length) !== oldest) {
      throw new MalformedRpcResponseError(connection.redactedUrl, "eth_feeHistory", `blocks ${chunk.oldestBlock}.. do not end right before block ${oldest}`);
    }
    chunks.unshift(chunk);
    oldest = chunk.oldestBlock;
  }
  // The first answer may reach further back than needed (a generous poll): keep at most maxBlocks.
  const total = chunks.reduce((blocks, chunk) => blocks + chunk.baseFeesWei.length, 0);
  const excess = Math.max(0, total - request.maxBlocks);
  oldest += BigInt(excess);
  const baseFeesWei = joinedSeries(chunks, (chunk) => chunk.baseFeesWei, excess)!;
  const gasUsedRatios = joinedSeries(chunks, (chunk) => chunk.gasUsedRatios, excess);
  const blobBaseFeesWei = joinedSeries(chunks, (chunk) => chunk.blobBaseFeesWei, excess);
  const blobGasUsedRatios = blobBaseFeesWei && joinedSeries(chunks, (chunk) => chunk.blobGasUsedRatios, excess);
  // One answer's malformed blob fields cost every answer's (joinedSeries leaves a series out unless all carry it).
  const blobProblem = chunks.find((chunk) => chunk.blobProblem !== undefined)?.blobProblem;
  return {
    oldestBlock: oldest,
    baseFeesWei,
    nextBaseFeeWei: first.nextBaseFeeWei,
    ...(gasUsedRatios ? { gasUsedRatios } : {}),
    ...(blobBaseFeesWei ? { blobBaseFeesWei } : {}),
    ...(blobBaseFeesWei && first.nextBlobBaseFeeWei !== undefined ? { nextBlobBaseFeeWei: first.nextBlobBaseFeeWei } : {}),
    ...(blobGasUsedRatios ? { blobGasUsedRatios } : {}),
    ...(blobProblem === undefined ? {} : { blobProblem }),
    ...(first.tips ? { tips: first.tips } : {}),
    ...(first.header ? { header: first.header } : {}),
    ...(first.batchRefused ? { batchRefused: true } : {}),
  };
}

/**
 * One per-block series of consecutive answers (oldest first), joined and without its first `skip` blocks; undefined
 * unless every answer carried it (a series with a hole would give blocks another block's values).
 */
function joinedSeries<T>(answers: readonly FeeHistoryAnswer[], series: (answer: FeeHistoryAnswer) => readonly T[] | undefined, skip: number): T[] | undefined {
  const parts = answers.map(series);
  if (parts.some((part) => part === undefined)) return undefined;
  return (parts as (readonly T[])[]).flat().slice(skip);
}
