import { BlockWindow } from "../core/fees/blockWindow.ts";
import { snapshotOf, type FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import type { BlockTips } from "../core/fees/recentTips.ts";
import type { ChainEntry, FeeSource } from "../service/feeSource.ts";
import type { NetworkStatus } from "../wire/networkStatus.ts";

/** How a test describes one chain. */
export interface TestChain {
  readonly chainId: number;
  readonly name?: string;
  /** Blocks the statistics cover (the window's capacity); 500 unless given. */
  readonly statsWindowBlocks?: number;
  readonly blockTimeMs?: number;
  readonly noBaseFee?: boolean;
}

/** A real FeeSource over real BlockWindows, for the server's tests: tests write blocks, subscribers hear of it. */
export class TestFeeSource implements FeeSource {
  readonly #chains = new Map<number, { entry: MutableEntry; window: BlockWindow }>();
  readonly #listeners = new Set<(chainId: number) => void>();

  constructor(chains: readonly TestChain[]) {
    for (const chain of chains) {
      const window = new BlockWindow(chain.statsWindowBlocks ?? 500);
      const entry = new MutableEntry(chain, window);
      this.#chains.set(chain.chainId, { entry, window });
    }
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  chain(chainId: number): ChainEntry | undefined {
    return this.#chains.get(chainId)?.entry;
  }

  networks(): NetworkStatus[] {
    return [...this.#chains.values()].map(({ entry }) => entry.status());
  }

  subscribe(listener: (chainId: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Writes blocks from `firstBlock` into the chain's window, makes a new snapshot and tells the subscribers.
   * `recentTips` are the snapshot's tips as they are (not merged with earlier ones).
   */
  write(
    chainId: number,
    firstBlock: bigint,
    baseFeesWei: readonly bigint[],
    confirmedAt: number,
    nextBaseFeeWei?: bigint,
    recentTips?: readonly BlockTips[],
  ): FeeSnapshot {
    const chain = this.#chains.get(chainId);
    if (chain === undefined) throw new Error(`test chain ${chainId} is not configured`);
    chain.window.write(firstBlock, baseFeesWei);
    chain.entry.snapshot = snapshotOf(chainId, chain.window, nextBaseFeeWei, { blockTimeMs: chain.entry.blockTimeMs, ...(recentTips ? { recentTips } : {}) });
    chain.entry.confirmedAt = confirmedAt;
    for (const listener of this.#listeners) listener(chainId);
    return chain.entry.snapshot!;
  }
}

class MutableEntry implements ChainEntry {
  readonly chainId: number;
  readonly noBaseFee: boolean;
  readonly blockTimeMs: number;
  snapshot: FeeSnapshot | undefined;
  confirmedAt: number | undefined;
  readonly #name: string;
  readonly #window: BlockWindow;

  constructor(chain: TestChain, window: BlockWindow) {
    this.chainId = chain.chainId;
    this.noBaseFee = chain.noBaseFee ?? false;
    this.blockTimeMs = chain.blockTimeMs ?? 12_000;
    this.#name = chain.name ?? `Chain ${chain.chainId}`;
    this.#window = window;
  }

  status(): NetworkStatus {
    const snapshot = this.snapshot;
    const gwei = (wei: bigint | undefined) => (wei === undefined ? null : toGweiString(wei));
    return {
      chainId: this.chainId,
      name: this.#name,
      state: this.noBaseFee ? "no-base-fee" : snapshot === undefined ? "syncing" : "ok",
      newestBlock: snapshot?.newestBlock.toString() ?? null,
      currentBaseFee: gwei(snapshot?.currentBaseFeeWei),
      baseFeePercentile: gwei(snapshot?.baseFeePercentileWei),
      busyThreshold: gwei(snapshot?.busyThresholdWei),
      minBaseFee: gwei(snapshot?.minWei),
      maxBaseFee: gwei(snapshot?.maxWei),
      busy: snapshot?.busy ?? null,
      historyBlocks: snapshot?.historyWei.length ?? 0,
      statsWindowBlocks: this.#window.capacityBlocks,
      blockTimeMs: this.blockTimeMs,
      dataAgeMs: null,
      endpoints: [],
    };
  }
}
