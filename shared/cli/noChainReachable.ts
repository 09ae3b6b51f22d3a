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

/**
 * The hint serve logs then, after each chain's own short line (which names its cause): what to do, the demo last so
 * that its command is easy to copy.
 */
export const NO_CHAIN_ANSWERS_HINT =
  'no chain answers: check the network connection or the RPC URLs (--chain, or "chains" in the settings). To try gasfees offline: npm run serve -- --demo';
