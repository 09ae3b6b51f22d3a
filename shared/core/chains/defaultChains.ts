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
 * How many blocks deep a chain may reorganise, for judging an endpoint that rewrites older blocks: a few blocks on
 * the rollups (their sequencer orders blocks; an unsafe head is rarely replaced, and never deeply), 128 on Polygon PoS
 * (whose reorganisations have run to dozens of blocks), and two epochs (64 slots) on Ethereum and any other chain.
 */
export function defaultReorgDepthBlocks(chainId: number): number {
  return REORG_DEPTH_BLOCKS[chainId] ?? 64;
}

const REORG_DEPTH_BLOCKS: Readonly<Record<number, number>> = { [base.id]: 8, [optimism.id]: 8, [arbitrum.id]: 8, [linea.id]: 8, [polygon.id]: 128 };

/**
 * Whether a chain has a blob market of its own (EIP-4844), when its settings do not say (`blobMarket`): not the
 * rollups, whose endpoints' `eth_feeHistory` may carry blob fields that are no market (an OP-stack header's blob base
 * fee is 1 wei, and since Jovian its `blobGasUsed` is a data-availability footprint): what they pay for blobs is
 * Ethereum's blob fee. OP Mainnet and Base (the OP stack), Arbitrum One and Linea are rollups; any other chain whose
 * endpoints give blob fields has a market of its own.
 */
export function defaultBlobMarket(chainId: number): boolean {
  return !ROLLUP_CHAIN_IDS.includes(chainId);
}

const ROLLUP_CHAIN_IDS: readonly number[] = Object.freeze([optimism.id, base.id, arbitrum.id, linea.id]);

/**
 * A chain's public RPC endpoints, in the order the feed tries them: viem's http endpoint first, then the others of
 * morePublicRpcUrls.ts (each with where its provider documents it), then viem's WebSocket endpoint if it has one.
 */
export function defaultRpcUrls(chain: Chain): string[] {
  const urls = [
    ...chain.rpcUrls.default.http,
    ...(MORE_PUBLIC_RPC_URLS[chain.id] ?? []).map((endpoint) => endpoint.url),
    ...(chain.rpcUrls.default.webSocket ?? []),
  ];
  return [...new Set(urls)];
}
