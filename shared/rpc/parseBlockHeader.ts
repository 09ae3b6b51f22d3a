import type { BlockAnchor } from "../core/history/blockAnchor.ts";
import { MalformedRpcResponseError } from "./errors.ts";
import { MAX_BLOCK_NUMBER, parseQuantity } from "./parseRpcAnswers.ts";

/**
 * The number and timestamp of a block header (an `eth_getBlockByNumber` result or a `newHeads` notification's) as an
 * anchor. Both are hex quantities; a timestamp beyond 2^53 seconds is garbage, whatever else the header says.
 */
export function parseBlockHeader(value: unknown, url: string, method: string): BlockAnchor {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new MalformedRpcResponseError(
      url,
      method,
      `the block header is ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}, not an object`,
    );
  }
  const header = value as Record<string, unknown>;
  const block = parseQuantity(header.number, MAX_BLOCK_NUMBER, "the block number", url, method);
  const timestamp = Number(parseQuantity(header.timestamp, MAX_BLOCK_NUMBER, "the block timestamp", url, method));
  return { block, timestamp };
}

/** The same, or undefined when the header has no readable number and timestamp: a header is extra, its garbage fails nothing. */
export function blockHeaderOrNone(value: unknown, url: string, method: string): BlockAnchor | undefined {
  try {
    return parseBlockHeader(value, url, method);
  } catch {
    return undefined;
  }
}
