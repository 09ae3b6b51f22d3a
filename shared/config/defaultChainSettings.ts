import { DEFAULT_CHAINS, defaultRpcUrls } from "../core/chains/defaultChains.ts";
import type { ChainSettings } from "./settings.ts";

/** The chains followed when the settings name none, as settings (the settings page shows and copies them). */
export function defaultChainSettings(): ChainSettings[] {
  return DEFAULT_CHAINS.map((chain) => ({ chainId: chain.id, name: chain.name, rpcUrls: defaultRpcUrls(chain) }));
}
