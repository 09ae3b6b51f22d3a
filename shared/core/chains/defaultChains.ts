import type { Chain } from "viem";
import { arbitrum, base, hardhat, linea, mainnet, optimism, polygon, sepolia } from "viem/chains";

/** The chains followed when the user configures none, with viem's public RPC endpoints. */
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

export function defaultRpcUrls(chain: Chain): string[] {
  return [...chain.rpcUrls.default.http, ...(chain.rpcUrls.default.webSocket ?? [])];
}
