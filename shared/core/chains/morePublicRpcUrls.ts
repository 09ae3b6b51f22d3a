/** A public RPC endpoint (no key, no account) and where its provider documents it, for whoever checks or replaces it. */
export interface PublicRpcUrl {
  readonly url: string;
  readonly source: string;
}

const CHAIN_REGISTRY = (chainId: number) =>
  `github.com/ethereum-lists/chains/blob/master/_data/chains/eip155-${chainId}.json (the registry behind chainlist.org)`;

/**
 * Public endpoints of the default chains besides viem's one per chain, so that a chain outlives one provider's outage
 * (the feed fails over in order and backs off from failing endpoints). Each is run by someone other than viem's, is
 * listed where `source` says, and was chosen among those listed for being free of keys and long-lived (Allnodes'
 * PublicNode, thirdweb's).
 */
export const MORE_PUBLIC_RPC_URLS: Readonly<Record<number, readonly PublicRpcUrl[]>> = Object.freeze({
  // Ethereum (viem: ethereum.reth.rs)
  1: [{ url: "https://ethereum-rpc.publicnode.com", source: CHAIN_REGISTRY(1) }],
  // Base (viem: mainnet.base.org, Base's own)
  8453: [{ url: "https://base-rpc.publicnode.com", source: CHAIN_REGISTRY(8453) }],
  // Arbitrum One (viem: arb1.arbitrum.io, Offchain Labs' own)
  42161: [{ url: "https://arbitrum-one-rpc.publicnode.com", source: CHAIN_REGISTRY(42161) }],
  // OP Mainnet (viem: mainnet.optimism.io, Optimism's own)
  10: [{ url: "https://optimism-rpc.publicnode.com", source: CHAIN_REGISTRY(10) }],
  // Polygon PoS (viem: polygon.drpc.org)
  137: [{ url: "https://polygon-bor-rpc.publicnode.com", source: CHAIN_REGISTRY(137) }],
  // Linea (viem: rpc.linea.build, Linea's own); the registry lists only keyed endpoints besides it, Linea's docs more.
  59144: [{ url: "https://linea.rpc.thirdweb.com", source: "https://docs.linea.build/get-started/tooling/node-providers (Public RPC endpoints)" }],
  // Sepolia (viem: 11155111.rpc.thirdweb.com)
  11155111: [{ url: "https://ethereum-sepolia-rpc.publicnode.com", source: CHAIN_REGISTRY(11155111) }],
});
