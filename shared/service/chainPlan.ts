import { defaultChainSettings } from "../config/defaultChainSettings.ts";
import { defaultBlockTimeMs, defaultChainName } from "../core/chains/defaultChains.ts";
import type { ChainSettings } from "../config/settings.ts";

/** One chain the service follows, with every default resolved. */
export interface ChainPlan {
  readonly chainId: number;
  readonly name: string;
  readonly rpcUrls: readonly string[];
  readonly blockTimeMs: number;
  readonly statsWindowBlocks: number;
  /** Overrides the interval derived from the block time (demo, tests). */
  readonly pollIntervalMs?: number;
  /** Per RPC request; the feed's default (10 s) unless set (fault-injection tests). */
  readonly requestTimeoutMs?: number;
}

export function chainPlanFrom(chain: ChainSettings): ChainPlan {
  return {
    chainId: chain.chainId,
    name: chain.name ?? defaultChainName(chain.chainId),
    rpcUrls: chain.rpcUrls,
    blockTimeMs: chain.blockTimeMs ?? defaultBlockTimeMs(chain.chainId),
    statsWindowBlocks: chain.statsWindowBlocks,
  };
}

/** The chains of the settings, or the default chains through viem's public RPC endpoints when none are set. */
export function chainPlansFrom(chains: readonly ChainSettings[] | undefined): ChainPlan[] {
  return (chains ?? defaultChainSettings()).map(chainPlanFrom);
}
