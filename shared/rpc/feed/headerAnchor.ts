import type { BlockAnchor } from "../../core/history/blockAnchor.ts";
import { parseBlockHeader } from "../connection/parseRpcAnswers.ts";

/**
 * The anchor a block header gives (an `eth_getBlockByNumber` result or a `newHeads` notification's): its number and
 * timestamp, or undefined when it has none readable. A header read beside the fees is extra: its garbage fails nothing,
 * it only gives no anchor.
 */
export function headerAnchor(value: unknown, url: string): BlockAnchor | undefined {
  try {
    const header = parseBlockHeader(value, url);
    return { block: header.number, timestamp: header.timestamp };
  } catch {
    return undefined;
  }
}
