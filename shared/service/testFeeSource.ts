import { parseWindowSpec } from "../core/history/duration.ts";
import type { HistoryView } from "../core/history/historyView.ts";
import { BlockWindow } from "../core/fees/blockWindow.ts";
import { DEFAULT_BLOCK_TIME_MS, snapshotOf, type FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import type { BlockTips } from "../core/fees/recentTips.ts";
import type { FeedPhase } from "../rpc/feedReport.ts";
import type { HistoryStatus } from "../wire/networkStatus.ts";
import type { ChainPlan } from "./chainPlan.ts";
import { type ChainPublication, type FeedHealth, NO_HISTORY, publish } from "./chainPublication.ts";
import type { FeeSource } from "./feeSource.ts";

/** How a test describes one chain. */
export interface TestChain {
  readonly chainId: number;
  readonly name?: string;
  /** Blocks the statistics cover (the window's capacity); 500 unless given. */
  readonly statsWindowBlocks?: number;
  /** The statistics window as settings write it ("24h", "500 blocks"), for readers of `status.statsWindow`; wins over statsWindowBlocks there. */
  readonly statsWindow?: string;
  readonly blockTimeMs?: number;
  readonly noBaseFee?: boolean;
}

interface HeldChain {
  readonly plan: ChainPlan;
  readonly window: BlockWindow;
  publication: ChainPublication;
}

/**
 * A FeeSource for the server's tests and benchmarks: tests write blocks into real BlockWindows, and each write is
 * published exactly as the service publishes a feed's report (the same `publish`), without any RPC.
 */
export class TestFeeSource implements FeeSource {
  readonly #chains = new Map<number, HeldChain>();
  readonly #listeners = new Set<(publication: ChainPublication) => void>();

  constructor(chains: readonly TestChain[]) {
    for (const chain of chains) {
      const plan: ChainPlan = {
        chainId: chain.chainId,
        name: chain.name ?? `Chain ${chain.chainId}`,
        rpcUrls: [],
        blockTimeMs: chain.blockTimeMs ?? DEFAULT_BLOCK_TIME_MS,
        statsWindowBlocks: chain.statsWindowBlocks ?? HISTORY_BLOCKS,
        ...(chain.statsWindow === undefined ? {} : { statsWindow: parseWindowSpec(chain.statsWindow) }),
      };
      const phase: FeedPhase = chain.noBaseFee ? "no-base-fee" : "syncing";
      const report: FeedHealth = { confirmedAt: undefined, phase, endpoints: [], callCounts: [], changed: { blocks: false, health: false } };
      this.#chains.set(chain.chainId, {
        plan,
        window: new BlockWindow(chain.statsWindowBlocks ?? HISTORY_BLOCKS),
        publication: publish(plan, report, undefined, NO_HISTORY),
      });
    }
  }

  /** Histories tests set with `setHistory`. */
  readonly #histories = new Map<number, HistoryView>();

  /** Gives a configured chain a held history (baseFeeStats, the CSV export). */
  setHistory(chainId: number, view: HistoryView): void {
    if (!this.#chains.has(chainId)) throw new Error(`chain ${chainId} is not configured in this test source`);
    this.#histories.set(chainId, view);
  }

  history(chainId: number): HistoryView | undefined {
    return this.#histories.get(chainId);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  get(chainId: number): ChainPublication | undefined {
    return this.#chains.get(chainId)?.publication;
  }

  list(): readonly ChainPublication[] {
    return [...this.#chains.values()].map((chain) => chain.publication);
  }

  subscribe(listener: (publication: ChainPublication) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Writes blocks from `firstBlock` into the chain's window, publishes the new snapshot and tells the subscribers.
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
    const chain = this.#held(chainId);
    chain.window.write(firstBlock, baseFeesWei);
    const snapshot = snapshotOf(chainId, chain.window, nextBaseFeeWei, { blockTimeMs: chain.plan.blockTimeMs, ...(recentTips ? { recentTips } : {}) })!;
    const health = chain.publication.status.state !== "ok";
    this.#publish(chain, { snapshot, confirmedAt, phase: "ok", changed: { blocks: true, health } });
    return snapshot;
  }

  /** Publishes a new phase (an endpoint outage, say) with the data held. */
  setPhase(chainId: number, phase: FeedPhase, confirmedAt?: number): void {
    const chain = this.#held(chainId);
    const { snapshot } = chain.publication;
    this.#publish(chain, { snapshot, confirmedAt: confirmedAt ?? chain.publication.confirmedAt, phase, changed: { blocks: false, health: true } });
  }

  /** Publishes a new status of the chain's history (a backfill's progress, say), with the data held. */
  setHistoryStatus(chainId: number, status: HistoryStatus): void {
    const chain = this.#held(chainId);
    const { snapshot, confirmedAt } = chain.publication;
    const report: FeedHealth = { endpoints: [], callCounts: [], confirmedAt, phase: chain.publication.status.state, changed: { blocks: false, health: false } };
    chain.publication = publish(chain.plan, report, chain.publication, { snapshot, status, changed: true });
    for (const listener of this.#listeners) listener(chain.publication);
  }

  #held(chainId: number): HeldChain {
    const chain = this.#chains.get(chainId);
    if (chain === undefined) throw new Error(`test chain ${chainId} is not configured`);
    return chain;
  }

  #publish(
    chain: HeldChain,
    report: { snapshot: FeeSnapshot | undefined; confirmedAt: number | undefined; phase: FeedPhase; changed: { blocks: boolean; health: boolean } },
  ): void {
    const previous = chain.publication;
    // The history's status stays what setHistoryStatus last said, as a real chain's does between its pages.
    const { snapshot: _snapshot, ...health } = report;
    chain.publication = publish(chain.plan, { endpoints: [], callCounts: [], ...health }, previous, {
      snapshot: report.snapshot,
      status: previous.status.history,
      changed: false,
    });
    for (const listener of this.#listeners) listener(chain.publication);
  }
}
