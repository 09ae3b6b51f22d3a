import type { ChainPublication } from "../service/chainPublication.ts";
import type { FeeSource } from "../service/feeSource.ts";

/**
 * Calls `onNoneReachable` once, the first time every followed chain is unreachable (no data yet, and every one of its
 * RPC endpoints failing): offline, or behind a proxy, serve should say so in one sentence rather than leave the user
 * with a warning per endpoint. Returns the function that stops watching (it also stops by itself once it has called).
 */
export function watchForNoChainReachable(source: FeeSource, onNoneReachable: (chains: readonly ChainPublication[]) => void): () => void {
  let watching = true;
  const check = () => {
    const chains = source.list();
    if (!watching || chains.length === 0 || !chains.every((chain) => chain.status.state === "unreachable")) return;
    watching = false;
    unsubscribe();
    onNoneReachable(chains);
  };
  const unsubscribe = source.subscribe(check);
  check();
  return () => {
    watching = false;
    unsubscribe();
  };
}

/** The sentence serve logs then: how many chains, the first failure as an example, and what to do. */
export function noChainReachableMessage(chains: readonly ChainPublication[]): string {
  const example = chains.flatMap((chain) =>
    chain.status.endpoints.flatMap((endpoint) => (endpoint.lastError ? [`${endpoint.url}: ${endpoint.lastError}`] : [])),
  )[0];
  return (
    `no chain could be reached: every RPC endpoint of ${chains.length === 1 ? "the chain" : `all ${chains.length} chains`} failed` +
    `${example ? ` (${example})` : ""}. Check this computer's network connection, or the RPC URLs (--chain, or "chains" in the settings). ` +
    "To try gasfees without a network: npm run serve -- --demo"
  );
}
