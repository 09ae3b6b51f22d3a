import { feeHistory, type FeeHistoryLimit } from "../rpc/feed/fetchBaseFees.ts";
import { parseBlockHeader, type BlockHeader } from "../rpc/connection/parseRpcAnswers.ts";
import type { RpcConnection } from "../rpc/connection/rpcConnection.ts";
import type { BackfillAnchors, BlockAnchor } from "./backfillAnchors.ts";
import { BackfillAnswerError } from "./backfillErrors.ts";
import { blocksIn, type BlockRange } from "./backfillRanges.ts";

/** Consecutive old blocks fetched by the backfill: block `firstBlock + i` has `baseFeesWei[i]`. */
export interface BackfillPage {
  readonly firstBlock: bigint;
  readonly baseFeesWei: readonly bigint[];
  /** Per block, its gas-used ratio as the endpoint gives it (usually 0..1; above 1 on Arbitrum). */
  readonly gasUsedRatios?: readonly number[];
  /** Per block, its blob base fee, when the endpoint gives them. */
  readonly blobBaseFeesWei?: readonly bigint[];
  /** The exact timestamps of the page's two ends, oldest first (one when the page holds one block). */
  readonly anchors: readonly BlockAnchor[];
  /**
   * The base fees the same answer gave for the blocks where the page meets the history held: the block above it
   * (eth_feeHistory's extra last element), and the block below it when asked for (`seamBelow`). Not part of the page.
   */
  readonly seams?: readonly SeamFee[];
}

/** A block's base fee as a page's answer gave it, where the page meets the history held. */
export interface SeamFee {
  readonly block: bigint;
  readonly baseFeeWei: bigint;
}

/** What a page is checked against: the timestamps known, and the clock. */
export interface BackfillPageChecks {
  readonly anchors: BackfillAnchors;
  /** Unix seconds now (the local clock). */
  readonly nowSeconds: number;
  /** How far past the local clock a block's timestamp may be (clocks drift). */
  readonly maxFutureSeconds: number;
  /** Ask for one block more below the range: the block the history holds below it, to check the page meets it. */
  readonly seamBelow?: boolean;
}

/** What fetching a page needs of a connection. */
export type BackfillPageConnection = Pick<RpcConnection, "request" | "redactedUrl">;

/**
 * One page: `eth_feeHistory` for the blocks of `range` ending at its newest block (fewer when the endpoint caps a
 * request: the cap is learned in `limit` and the page holds the newest blocks), then the headers of the page's two
 * ends (`eth_getBlockByNumber(n, false)`) for their exact timestamps. Three JSON-RPC calls (two for a one-block page).
 *
 * Throws BackfillAnswerError when the answers contradict the request, each other or the timestamps known; the
 * connection's errors (RpcEndpointError, MalformedRpcResponseError) pass through.
 */
export async function fetchBackfillPage(
  connection: BackfillPageConnection,
  range: BlockRange,
  limit: FeeHistoryLimit,
  checks: BackfillPageChecks,
): Promise<BackfillPage> {
  const url = connection.redactedUrl;
  const capKnown = Number.isFinite(limit.maxBlocks);
  const below = checks.seamBelow === true && range.fromBlock > 0n ? 1 : 0;
  const asked = blocksIn(range) + below;
  const fetched = await feeHistory(connection, asked, range.toBlock, limit);
  const expected = Math.min(asked, limit.maxBlocks);
  // The first short answer teaches the endpoint's cap; one shorter than the cap it taught is not a cap.
  if (fetched.baseFeesWei.length < expected && capKnown)
    throw new BackfillAnswerError(
      url,
      `eth_feeHistory gave ${fetched.baseFeesWei.length} blocks ending at block ${range.toBlock} where ${expected} were asked, within its own limit`,
    );
  if (fetched.baseFeesWei.length < expected) limit.lower(fetched.baseFeesWei.length);
  const seams: SeamFee[] = fetched.nextBaseFeeWei === undefined ? [] : [{ block: range.toBlock + 1n, baseFeeWei: fetched.nextBaseFeeWei }];
  // The block below the range, when the answer reaches it: a seam, not part of the page.
  const answer = below === 1 && fetched.oldestBlock === range.fromBlock - 1n && fetched.baseFeesWei.length > 1 ? withoutOldest(fetched) : fetched;
  if (answer !== fetched) seams.unshift({ block: fetched.oldestBlock, baseFeeWei: fetched.baseFeesWei[0]! });
  const firstBlock = answer.oldestBlock;
  const ends = firstBlock === range.toBlock ? [firstBlock] : [firstBlock, range.toBlock];
  const headers = await Promise.all(
    ends.map(async (block) => parseBlockHeader(await connection.request("eth_getBlockByNumber", [`0x${block.toString(16)}`, false]), url)),
  );
  const anchors = headers.map((header, i) => checkedAnchor(header, ends[i]!, answer.baseFeesWei[Number(ends[i]! - firstBlock)]!));
  for (const anchor of anchors) {
    if (anchor.timestamp > checks.nowSeconds + checks.maxFutureSeconds) {
      throw new BackfillAnswerError(
        url,
        `block ${anchor.block}'s timestamp ${anchor.timestamp} is ${Math.round(anchor.timestamp - checks.nowSeconds)} s in the future`,
      );
    }
    const conflict = checks.anchors.conflictWith(anchor);
    if (conflict !== undefined) throw new BackfillAnswerError(url, `timestamps out of order: ${conflict}`);
  }
  if (anchors.length === 2 && anchors[0]!.timestamp > anchors[1]!.timestamp) {
    throw new BackfillAnswerError(
      url,
      `block ${anchors[0]!.block} at ${anchors[0]!.timestamp} is later than block ${anchors[1]!.block} at ${anchors[1]!.timestamp}`,
    );
  }
  return {
    firstBlock,
    baseFeesWei: answer.baseFeesWei,
    ...(answer.gasUsedRatios ? { gasUsedRatios: answer.gasUsedRatios } : {}),
    ...(answer.blobBaseFeesWei ? { blobBaseFeesWei: answer.blobBaseFeesWei } : {}),
    anchors: Object.freeze(anchors),
    seams: Object.freeze(seams),
  };

  function checkedAnchor(header: BlockHeader, block: bigint, pageFeeWei: bigint): BlockAnchor {
    if (header.number !== block) throw new BackfillAnswerError(url, `eth_getBlockByNumber for block ${block} gave block ${header.number}`);
    if (header.baseFeePerGas !== pageFeeWei) {
      throw new BackfillAnswerError(url, `block ${block}'s header has base fee ${header.baseFeePerGas ?? "none"} where eth_feeHistory gave ${pageFeeWei} wei`);
    }
    return Object.freeze({ block, timestamp: header.timestamp });
  }
}

/** The answer without its oldest block (the seam below a page). */
function withoutOldest<
  T extends { oldestBlock: bigint; baseFeesWei: readonly bigint[]; gasUsedRatios?: readonly number[]; blobBaseFeesWei?: readonly bigint[] },
>(answer: T): T {
  return {
    ...answer,
    oldestBlock: answer.oldestBlock + 1n,
    baseFeesWei: answer.baseFeesWei.slice(1),
    ...(answer.gasUsedRatios ? { gasUsedRatios: answer.gasUsedRatios.slice(1) } : {}),
    ...(answer.blobBaseFeesWei ? { blobBaseFeesWei: answer.blobBaseFeesWei.slice(1) } : {}),
  };
}
