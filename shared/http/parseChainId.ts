import { decimalChainIdOf } from "../core/chains/decimalChainId.ts";
import { ApiError } from "./apiErrors.ts";

/** A chain id as the path carries it, or the contract's INVALID_CHAIN_ID. */
export function parseChainId(text: string): number {
  const chainId = decimalChainIdOf(text);
  if (chainId === undefined) throw new ApiError("INVALID_CHAIN_ID", { chainId: text });
  return chainId;
}
