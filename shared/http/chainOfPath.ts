import { decimalChainIdOf } from "../core/chains/decimalChainId.ts";
import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import type { ChainPublication } from "../service/chainPublication.ts";
import { ApiError } from "./apiErrors.ts";
import type { RouteContext } from "./routeTypes.ts";

/**
 * What a chain route needs of the `{chainId}` parameter's chain before it answers:
 * - "configured": any configured chain (its event stream opens whatever state the chain is in);
 * - "base fee": a chain with an EIP-1559 base fee, with data or not yet;
 * - "held data": that, and data: a published snapshot or a block of the held history (baseFeeStats and the CSV
 *   export: a history kept across a restart answers before the first RPC reply does);
 * - "data": that, and a published snapshot (the fee endpoints answer from it).
 */
export type ChainNeed = "configured" | "base fee" | "held data" | "data";

/** A publication with data: what the fee endpoints answer from. */
export type PublicationWithData = ChainPublication & { readonly snapshot: FeeSnapshot };

/**
 * The one lookup of every chain route: the `{chainId}` parameter's chain, or the contract's error for why it cannot
 * answer, checked in the same order everywhere: INVALID_CHAIN_ID, UNSUPPORTED_CHAIN, NO_BASE_FEE, NO_DATA (each
 * naming the chain id as the caller wrote it).
 */
export function chainOfPath(context: RouteContext, need: "data"): PublicationWithData;
export function chainOfPath(context: RouteContext, need: ChainNeed): ChainPublication;
export function chainOfPath({ params, resources }: RouteContext, need: ChainNeed): ChainPublication {
  const text = params["chainId"] ?? "";
  const publication = resources.source.get(parsePathChainId(text));
  if (publication === undefined) throw new ApiError("UNSUPPORTED_CHAIN", { chainId: text });
  if (need === "configured") return publication;
  if (publication.status.state === "no-base-fee") throw new ApiError("NO_BASE_FEE", { chainId: text });
  if (need === "base fee" || publication.snapshot !== undefined) return publication;
  if (need === "held data" && resources.source.history(publication.chainId)?.newest !== undefined) return publication;
  throw new ApiError("NO_DATA", { chainId: text, retryAfterSeconds: Math.max(1, Math.ceil(publication.blockTimeMs / 1000)) });
}

/** A chain id as the path carries it (decimal, as the hosted Gas API writes it), or the contract's INVALID_CHAIN_ID. */
export function parsePathChainId(text: string): number {
  const chainId = decimalChainIdOf(text);
  if (chainId === undefined) throw new ApiError("INVALID_CHAIN_ID", { chainId: text });
  return chainId;
}
