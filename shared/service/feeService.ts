import type { HistoryView } from "../core/history/historyView.ts";
import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import type { Logger } from "../log/logger.ts";
import { ChainFeed, type ChainFeedOptions } from "../rpc/chainFeed.ts";
import type { FeedReport } from "../rpc/feedReport.ts";
import type { ChainPlan } from "./chainPlan.ts";
import { ChainRecord, type HistoryPersistence } from "./chainRecord.ts";
import { type ChainPublication, publish } from "./chainPublication.ts";
import type { FeeSource } from "./feeSource.ts";
import { type ChainMoney, moneyNotReadYet } from "./chainMoney.ts";

const NOTHING_CHANGED: FeedReport["changed"] = Object.freeze({ blocks: false, health: false });

/**
 * What the service needs of a chain's feed: rpc/chainFeed.ts's ChainFeed, which follows real endpoints, or a feed
 * that tests script (test/support/scriptedFeed.ts). It hands each report to the `onReport` of its options.
 */
export interface Feed {
  readonly chainId: number;
  /** The newest report: the one last handed to onReport, or the first (syncing, no data) before any. */
  readonly report: FeedReport;
  start(): void;
  stop(): Promise<void>;
}

export interface FeeServiceOptions {
  readonly logger: Logger;
  /** Seam for the RPC layer; the default follows real endpoints. */
  readonly createFeed?: (options: ChainFeedOptions) => Feed;
  /** Where histories are kept across restarts; without one, only in memory. */
  readonly store?: HistoryPersistence;
  /** Starts fetching a chain's older blocks into its record; without one, the history grows from the head only. */
  readonly startBackfill?: (plan: ChainPlan, record: ChainRecord, republish: () => void) => { stop(): Promise<void> };
  /** Epoch ms; tests may pin it. */
  readonly now?: () => number;
  /** The currency of costs (settings' `currency`), said before the first price is read; default USD. */
  readonly currency?: string;
}

/**
 * Follows every planned chain and publishes, per chain, one immutable ChainPublication for each report of its feed:
 * data flows one way, from the feed's report to the publication to every reader.
 */
export class FeeService implements FeeSource {
  readonly #feeds: Feed[] = [];
  readonly #publications = new Map<number, ChainPublication>();
  readonly #listeners = new Set<(publication: ChainPublication) => void>();
  readonly #logger: Logger;
  readonly #records = new Map<number, ChainRecord>();
  readonly #reports = new Map<number, FeedReport>();
  readonly #plans: readonly ChainPlan[];
  readonly #options: FeeServiceOptions;
  readonly #now: () => number;
  readonly #backfills: { stop(): Promise<void> }[] = [];
  readonly #money = new Map<number, ChainMoney>();

  constructor(plans: readonly ChainPlan[], options: FeeServiceOptions) {
    this.#logger = options.logger;
    this.#plans = plans;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    const createFeed = options.createFeed ?? ((feedOptions: ChainFeedOptions): Feed => new ChainFeed(feedOptions));
    for (const plan of plans) {
      if (this.#publications.has(plan.chainId)) throw new Error(`chain ${plan.chainId} is configured twice`);
      const record = new ChainRecord(plan, { store: plan.persistHistory === false ? undefined : options.store, logger: options.logger });
      record.loadStored();
      const held = record.history.newest;
      const heldBlocks = record.newestBlocks(HISTORY_BLOCKS);
      const feed = createFeed({
        chainId: plan.chainId,
        rpcUrls: plan.rpcUrls,
        blockTimeMs: plan.blockTimeMs,
        windowBlocks: HISTORY_BLOCKS,
        ...(plan.reorgDepthBlocks === undefined ? {} : { reorgDepthBlocks: plan.reorgDepthBlocks }),
        ...(held === undefined ? {} : { heldHead: { block: held.block, timestamp: held.timestamp } }),
        ...(heldBlocks === undefined ? {} : { heldBlocks }),
        ...(plan.pollIntervalMs === undefined ? {} : { pollIntervalMs: plan.pollIntervalMs }),
        ...(plan.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: plan.requestTimeoutMs }),
        logger: options.logger,
        onReport: (report) => this.#publish(plan, report),
      });
      this.#feeds.push(feed);
      this.#records.set(plan.chainId, record);
      this.#reports.set(plan.chainId, feed.report);
      this.#money.set(plan.chainId, moneyNotReadYet(options.currency ?? "USD", plan.l1FeeKind ?? "none"));
      this.#publications.set(plan.chainId, publish(plan, feed.report, undefined, record.part(), this.#money.get(plan.chainId)!));
    }
  }

  start(): void {
    for (const feed of this.#feeds) feed.start();
    const { startBackfill } = this.#options;
    if (startBackfill === undefined) return;
    for (const plan of this.#plans) {
      const record = this.#records.get(plan.chainId)!;
      this.#backfills.push(startBackfill(plan, record, () => this.#publishHistoryGrew(plan)));
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#feeds.map((feed) => feed.stop()), ...this.#backfills.map((backfill) => backfill.stop())]);
  }

  get(chainId: number): ChainPublication | undefined {
    return this.#publications.get(chainId);
  }

  list(): readonly ChainPublication[] {
    return [...this.#publications.values()];
  }

  history(chainId: number): HistoryView | undefined {
    return this.#records.get(chainId)?.history;
  }

  subscribe(listener: (publication: ChainPublication) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A feed's report: its blocks go into the chain's record, and the chain is published with what they changed. */
  #publish(plan: ChainPlan, report: FeedReport): void {
    const record = this.#records.get(plan.chainId)!;
    this.#reports.set(plan.chainId, report);
    record.takeReport(report, this.#now());
    this.#hand(publish(plan, report, this.#publications.get(plan.chainId), record.part(), this.#money.get(plan.chainId)!));
  }

  /**
   * The chain's price or L1 fees were read anew (shared/service/costReaders.ts): the chain is published with them and
   * everything else as it stands.
   */
  setMoney(chainId: number, money: ChainMoney): void {
    const plan = this.#plans.find((candidate) => candidate.chainId === chainId);
    if (plan === undefined) return;
    this.#money.set(chainId, money);
    const health = { ...this.#reports.get(chainId)!, changed: NOTHING_CHANGED };
    this.#hand(publish(plan, health, this.#publications.get(chainId), this.#records.get(chainId)!.part(), money));
  }

  /**
   * The backfill wrote pages (or its progress moved): the chain is published with its history's new part and the
   * feed's health as it stands, nothing of the feed's last report taken again (no blocks changed at the head).
   */
  #publishHistoryGrew(plan: ChainPlan): void {
    const health = { ...this.#reports.get(plan.chainId)!, changed: NOTHING_CHANGED };
    this.#hand(publish(plan, health, this.#publications.get(plan.chainId), this.#records.get(plan.chainId)!.part(), this.#money.get(plan.chainId)!));
  }

  /** Keeps the chain's newest publication and hands it to every reader; a reader that throws stops no other. */
  #hand(publication: ChainPublication): void {
    this.#publications.set(publication.chainId, publication);
    for (const listener of this.#listeners) {
      try {
        listener(publication);
      } catch (error) {
        this.#logger.error("a reader of the chain's publication failed", { chainId: publication.chainId, error: String(error) });
      }
    }
  }
}
