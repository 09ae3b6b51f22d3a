import type { Chain } from "viem";
import { arbitrum, base, hardhat, linea, mainnet, optimism, polygon, sepolia } from "viem/chains";
import { MORE_PUBLIC_RPC_URLS } from "./morePublicRpcUrls.ts";

/** The chains followed when the user configures none, through public RPC endpoints (defaultRpcUrls). */
export const DEFAULT_CHAINS: readonly Chain[] = [mainnet, base, arbitrum, optimism, polygon, linea, sepolia];

const KNOWN_CHAINS: readonly Chain[] = [...DEFAULT_CHAINS, hardhat];

/** Seconds between blocks when neither viem nor the user knows (Ethereum's slot time). */
const FALLBACK_BLOCK_TIME_MS = 12_000;

export function knownChain(chainId: number): Chain | undefined {
  return KNOWN_CHAINS.find((chain) => chain.id === chainId);
}

export function defaultChainName(chainId: number): string {
  return knownChain(chainId)?.name ?? `Chain ${chainId}`;
}

export function defaultBlockTimeMs(chainId: number): number {
  return knownChain(chainId)?.blockTime ?? FALLBACK_BLOCK_TIME_MS;
}

/**
 * A chain's public RPC endpoints, in the order the feed tries them: viem's http endpoint first, then the others of
 * morePublicRpcUrls.ts (each with where it is published), then viem's WebSocket endpoint if it has one.
 */
export function defaultRpcUrls(chain: Chain): string[] {
  const urls = [
    ...chain.rpcUrls.default.http,
    ...(MORE_PUBLIC_RPC_URLS[chain.id] ?? []).map((endpoint) => endpoint.url),
    ...(chain.rpcUrls.default.webSocket ?? []),
  ];
  return [...new Set(urls)];
}
