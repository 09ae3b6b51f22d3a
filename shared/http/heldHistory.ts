import type { HistoryView } from "../core/history/historyView.ts";
import type { ChainPublication } from "../service/chainPublication.ts";
import { ApiError } from "./apiErrors.ts";
import { parseChainId } from "./parseChainId.ts";
import type { RouteContext } from "./routes.ts";

/** A chain of the `{chainId}` parameter with the history it holds (none for a chain whose history is not kept). */
export interface HeldHistory {
  readonly publication: ChainPublication;
  readonly history: HistoryView | undefined;
}

/**
 * The `{chainId}` parameter's chain and its held history, or the contract's error for why there are none, in the
 * order the other chain routes check: the chain id, then a chain without a base fee.
 */
export function heldHistoryOf({ params, resources }: RouteContext): HeldHistory {
  const text = params["chainId"] ?? "";
  const chainId = parseChainId(text);
  const publication = resources.source.get(chainId);
  if (publication === undefined) throw new ApiError("UNSUPPORTED_CHAIN", { chainId: text });
  if (publication.status.state === "no-base-fee") throw new ApiError("NO_BASE_FEE", { chainId: text });
  return { publication, history: resources.source.history(chainId) };
}

/**
 * NO_DATA while the chain has no data at all: neither a published snapshot nor a held block (a history kept across a
 * restart answers before the first RPC reply does).
 */
export function requireData({ publication, history }: HeldHistory, chainIdText: string): void {
  if (publication.answers !== undefined || history?.newest !== undefined) return;
  throw new ApiError("NO_DATA", { chainId: chainIdText, retryAfterSeconds: Math.max(1, Math.ceil(publication.blockTimeMs / 1000)) });
}
