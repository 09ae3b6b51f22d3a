import { type FeeSnapshot, HISTORY_BLOCKS, snapshotOf } from "../core/fees/feeSnapshot.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import { ChainFeed, type ChainFeedOptions } from "../rpc/chainFeed.ts";
import type { ChainPlan } from "./chainPlan.ts";
import type { ChainEntry, FeeSource } from "./feeSource.ts";
import type { Logger } from "../log/logger.ts";
import type { NetworkStatus } from "../wire/networkStatus.ts";

type Listener = (chainId: number) => void;

/** One followed chain: its feed and the newest snapshot made from it. */
class FollowedChain implements ChainEntry {
  readonly chainId: number;
  readonly blockTimeMs: number;
  snapshot: FeeSnapshot | undefined;

  constructor(
    readonly plan: ChainPlan,
    readonly feed: ChainFeed,
    private readonly now: () => number,
  ) {
    this.chainId = plan.chainId;
    this.blockTimeMs = plan.blockTimeMs;
  }

  get confirmedAt(): number | undefined {
    return this.feed.confirmedAt;
  }

  get noBaseFee(): boolean {
    return this.feed.noBaseFee;
  }

  refreshSnapshot(): void {
    this.snapshot = snapshotOf(this.chainId, this.feed.window, this.feed.nextBaseFeeWei, { recentTips: this.feed.tips.blocks, blockTimeMs: this.blockTimeMs });
  }

  status(): NetworkStatus {
    const { snapshot, feed, plan } = this;
    const gwei = (wei: bigint | undefined) => (wei === undefined ? null : toGweiString(wei));
    const state = feed.noBaseFee ? "no-base-fee" : feed.degraded ? "degraded" : snapshot ? "ok" : "syncing";
    return {
      chainId: plan.chainId,
      name: plan.name,
      state,
      newestBlock: snapshot ? snapshot.newestBlock.toString() : null,
      currentBaseFee: gwei(snapshot?.currentBaseFeeWei),
      baseFeePercentile: gwei(snapshot?.baseFeePercentileWei),
      busyThreshold: gwei(snapshot?.busyThresholdWei),
      minBaseFee: gwei(snapshot?.minWei),
      maxBaseFee: gwei(snapshot?.maxWei),
      busy: snapshot ? snapshot.busy : null,
      historyBlocks: snapshot ? snapshot.historyWei.length : 0,
      statsWindowBlocks: plan.statsWindowBlocks,
      blockTimeMs: plan.blockTimeMs,
      dataAgeMs: snapshot && this.confirmedAt !== undefined ? Math.max(0, this.now() - this.confirmedAt) : null,
      endpoints: feed.endpoints(),
    };
  }
}

export interface FeeServiceOptions {
  logger: Logger;
  now?: () => number;
  /** Seam for the RPC layer; the default follows real endpoints. */
  createFeed?: (options: ChainFeedOptions) => ChainFeed;
}

/** Follows every planned chain and keeps, per chain, the newest immutable snapshot for the API and the dashboard. */
export class FeeService implements FeeSource {
  readonly #chains = new Map<number, FollowedChain>();
  readonly #listeners = new Set<Listener>();
  readonly #logger: Logger;

  constructor(plans: readonly ChainPlan[], options: FeeServiceOptions) {
    this.#logger = options.logger;
    const now = options.now ?? Date.now;
    const createFeed = options.createFeed ?? ((feedOptions) => new ChainFeed(feedOptions));
    for (const plan of plans) {
      if (this.#chains.has(plan.chainId)) throw new Error(`chain ${plan.chainId} is configured twice`);
      let followed: FollowedChain | undefined;
      const feed = createFeed({
        chainId: plan.chainId,
        rpcUrls: plan.rpcUrls,
        blockTimeMs: plan.blockTimeMs,
        windowBlocks: Math.max(HISTORY_BLOCKS, plan.statsWindowBlocks),
        ...(plan.pollIntervalMs === undefined ? {} : { pollIntervalMs: plan.pollIntervalMs }),
        ...(plan.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: plan.requestTimeoutMs }),
        logger: options.logger,
        onData: () => {
          followed?.refreshSnapshot();
          this.#notify(plan.chainId);
        },
        onHealth: () => this.#notify(plan.chainId),
      });
      followed = new FollowedChain(plan, feed, now);
      this.#chains.set(plan.chainId, followed);
    }
  }

  start(): void {
    for (const chain of this.#chains.values()) chain.feed.start();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#chains.values()].map((chain) => chain.feed.stop()));
  }

  chain(chainId: number): ChainEntry | undefined {
    return this.#chains.get(chainId);
  }

  networks(): NetworkStatus[] {
    return [...this.#chains.values()].map((chain) => chain.status());
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(chainId: number): void {
    for (const listener of this.#listeners) {
      try {
        listener(chainId);
      } catch (error) {
        this.#logger.error("a listener failed on a chain update", { chainId, error: String(error) });
      }
    }
  }
}
