import { ApiError } from "./apiErrors.ts";

const DECIMAL_CHAIN_ID = /^[1-9][0-9]{0,15}$/;

/** A chain id as the path carries it: decimal, as the hosted service writes it, from 1 to 2^53 - 1. */
export function parseChainId(text: string): number {
  if (!DECIMAL_CHAIN_ID.test(text)) throw new ApiError("INVALID_CHAIN_ID", { chainId: text });
  const chainId = Number(text);
  if (chainId > Number.MAX_SAFE_INTEGER) throw new ApiError("INVALID_CHAIN_ID", { chainId: text });
  return chainId;
}
