import type { HistoryView } from "../core/history/historyView.ts";
import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import type { Logger } from "../log/logger.ts";
import { ChainFeed, type ChainFeedOptions } from "../rpc/chainFeed.ts";
import type { FeedReport } from "../rpc/feedReport.ts";
import type { ChainPlan } from "./chainPlan.ts";
import { type ChainPublication, publish } from "./chainPublication.ts";
import type { FeeSource } from "./feeSource.ts";

export interface FeeServiceOptions {
  readonly logger: Logger;
  /** Seam for the RPC layer; the default follows real endpoints. */
  readonly createFeed?: (options: ChainFeedOptions) => ChainFeed;
}

/**
 * Follows every planned chain and publishes, per chain, one immutable ChainPublication for each report of its feed:
 * data flows one way, from the feed's report to the publication to every reader.
 */
export class FeeService implements FeeSource {
  readonly #feeds: ChainFeed[] = [];
  readonly #publications = new Map<number, ChainPublication>();
  readonly #listeners = new Set<(publication: ChainPublication) => void>();
  readonly #logger: Logger;

  constructor(plans: readonly ChainPlan[], options: FeeServiceOptions) {
    this.#logger = options.logger;
    const createFeed = options.createFeed ?? ((feedOptions) => new ChainFeed(feedOptions));
    for (const plan of plans) {
      if (this.#publications.has(plan.chainId)) throw new Error(`chain ${plan.chainId} is configured twice`);
      const feed = createFeed({
        chainId: plan.chainId,
        rpcUrls: plan.rpcUrls,
        blockTimeMs: plan.blockTimeMs,
        windowBlocks: Math.max(HISTORY_BLOCKS, plan.statsWindowBlocks),
        ...(plan.pollIntervalMs === undefined ? {} : { pollIntervalMs: plan.pollIntervalMs }),
        ...(plan.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: plan.requestTimeoutMs }),
        logger: options.logger,
        onReport: (report) => this.#publish(plan, report),
      });
      this.#feeds.push(feed);
      this.#publications.set(plan.chainId, publish(plan, feed.report, undefined));
    }
  }

  start(): void {
    for (const feed of this.#feeds) feed.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.#feeds.map((feed) => feed.stop()));
  }

  get(chainId: number): ChainPublication | undefined {
    return this.#publications.get(chainId);
  }

  list(): readonly ChainPublication[] {
    return [...this.#publications.values()];
  }

  history(_chainId: number): HistoryView | undefined {
    return undefined;
  }

  subscribe(listener: (publication: ChainPublication) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #publish(plan: ChainPlan, report: FeedReport): void {
    const publication = publish(plan, report, this.#publications.get(plan.chainId));
    this.#publications.set(plan.chainId, publication);
    for (const listener of this.#listeners) {
      try {
        listener(publication);
      } catch (error) {
        this.#logger.error("a reader of the chain's publication failed", { chainId: plan.chainId, error: String(error) });
      }
    }
  }
}
