import type { HistoryView } from "../core/history/historyView.ts";
import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import type { Logger } from "../log/logger.ts";
import type { HourlySummary } from "../core/outlook/hourlySummary.ts";
import { ChainFeed, type ChainFeedOptions } from "../rpc/feed/chainFeed.ts";
import type { FeedReport } from "../rpc/feed/feedReport.ts";
import type { ChainPlan } from "./chainPlan.ts";
import { ChainRecord } from "./chainRecord.ts";
import { type ChainPublication, publish } from "./chainPublication.ts";
import type { FeeSource } from "./feeSource.ts";
import { type HistoryPersistence, StoreWriter } from "./storeWriter.ts";
import { type ChainMoney, moneyNotReadYet } from "./chainMoney.ts";
import { ChainOutlook, type ChainOutlookOptions } from "./chainOutlook.ts";
import { createDefaultEstimator } from "../core/outlook/defaultEstimator.ts";

const NOTHING_CHANGED: FeedReport["changed"] = Object.freeze({ blocks: false, health: false });

/**
 * What the service needs of a chain's feed: rpc/feed/chainFeed.ts's ChainFeed, which follows real endpoints, or a feed
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
  /**
   * Where histories are kept across restarts; without one, only in memory. The service writes to it through a
   * StoreWriter of its own (short busy timeout, a queue for what the file does not take now); closing it is the caller's.
   */
  readonly store?: HistoryPersistence;
  /**
   * Starts fetching a chain's older blocks into its record; without one, the history grows from the head only. `store`:
   * the service's store writer where the chain's history is kept in the file (the outlook backfill writes its hours there).
   */
  readonly startBackfill?: (plan: ChainPlan, record: ChainRecord, republish: () => void, store: StoreWriter | undefined) => { stop(): Promise<void> };
  /** Epoch ms; tests may pin it. */
  readonly now?: () => number;
  /** The currency of costs (settings' `currency`), said before the first price is read; default USD. */
  readonly currency?: string;
  /** How each chain's outlook is prepared; default the project's estimator, sliced, the usual horizons eagerly. */
  readonly outlook?: Partial<ChainOutlookOptions>;
}

/** What the service keeps of one chain: its plan, feed and record, and the newest of what it publishes them with. */
interface FollowedChain {
  readonly plan: ChainPlan;
  readonly feed: Feed;
  readonly record: ChainRecord;
  /** The feed's newest report. */
  report: FeedReport;
  /** The price and L1 fees as last read. */
  money: ChainMoney;
  /** The newest publication: what readers get, and what the next one is made against. */
  publication: ChainPublication;
  /** The chain's outlook, prepared from each new array of its hourly summaries. */
  readonly outlook: ChainOutlook;
}

/**
 * Follows every planned chain and publishes, per chain, one immutable ChainPublication for each report of its feed:
 * data flows one way, from the feed's report to the publication to every reader.
 */
export class FeeService implements FeeSource {
  readonly #chains = new Map<number, FollowedChain>();
  readonly #listeners = new Set<(publication: ChainPublication) => void>();
  readonly #logger: Logger;
  readonly #options: FeeServiceOptions;
  readonly #now: () => number;
  readonly #backfills: { stop(): Promise<void> }[] = [];
  readonly #storeWriter: StoreWriter | undefined;

  constructor(plans: readonly ChainPlan[], options: FeeServiceOptions) {
    this.#logger = options.logger;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    const createFeed = options.createFeed ?? ((feedOptions: ChainFeedOptions): Feed => new ChainFeed(feedOptions));
    const storeWriter = options.store === undefined ? undefined : new StoreWriter(options.store, { logger: options.logger });
    this.#storeWriter = storeWriter;
    for (const plan of plans) {
      if (this.#chains.has(plan.chainId)) throw new Error(`chain ${plan.chainId} is configured twice`);
      const record = new ChainRecord(plan, { store: plan.persistHistory === false ? undefined : storeWriter, logger: options.logger });
      record.loadStored();
      const held = record.history.newest;
      const heldBlocks = record.newestBlocks(HISTORY_BLOCKS);
      const feed = createFeed({
        chainId: plan.chainId,
        rpcUrls: plan.rpcUrls,
        rpcLabels: plan.rpcLabels,
        blockTimeMs: plan.blockTimeMs,
        windowBlocks: HISTORY_BLOCKS,
        ...(plan.reorgDepthBlocks === undefined ? {} : { reorgDepthBlocks: plan.reorgDepthBlocks }),
        ...(held === undefined ? {} : { heldHead: { block: held.block, timestamp: held.timestamp } }),
        ...(heldBlocks === undefined ? {} : { heldBlocks }),
        ...(plan.pollIntervalMs === undefined ? {} : { pollIntervalMs: plan.pollIntervalMs }),
        ...(plan.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: plan.requestTimeoutMs }),
        logger: options.logger,
        onReport: (report) => this.#takeReport(chain, report),
      });
      const money = moneyNotReadYet(options.currency ?? "USD", plan.l1FeeKind ?? "none");
      const outlook = new ChainOutlook({ createEstimator: createDefaultEstimator, ...options.outlook });
      const publication = publish(plan, feed.report, undefined, record.part(), money);
      outlook.take(publication.hourlySummaries);
      const chain: FollowedChain = { plan, feed, record, report: feed.report, money, publication, outlook };
      this.#chains.set(plan.chainId, chain);
    }
    // Summaries written through the StoreWriter (the outlook backfill's) go into the chain's book, and so into its
    // publication; the record's own are in its book already (nothing changes, nothing is published twice).
    storeWriter?.onHourlySummaries((chainId, summaries) => {
      const chain = this.#chains.get(chainId);
      if (chain === undefined || chain.plan.persistHistory === false) return;
      if (chain.record.takeHourlySummaries(summaries)) this.#publishHistoryGrew(chain);
    });
    // A store problem told or over, or its queue written: every chain kept in the file shows it.
    storeWriter?.onHealthChange(() => {
      for (const chain of this.#chains.values()) {
        if (chain.plan.persistHistory === false) continue;
        chain.record.storeHealthChanged();
        this.#publishHistoryGrew(chain);
      }
    });
  }

  start(): void {
    for (const chain of this.#chains.values()) this.#writePast(chain);
    for (const chain of this.#chains.values()) chain.feed.start();
    const { startBackfill } = this.#options;
    if (startBackfill === undefined) return;
    for (const chain of this.#chains.values()) {
      const store = chain.plan.persistHistory === false ? undefined : this.#storeWriter;
      this.#backfills.push(startBackfill(chain.plan, chain.record, () => this.#publishHistoryGrew(chain), store));
    }
  }

  /**
   * The chain's past from its plan (the demo's weeks of mainnet samples), kept before its feed starts wherever the
   * chain holds no summary of the hour (a summary of the chain's own blocks, or one kept in the file, is never
   * replaced): through the store writer where the chain is kept in the file, else (the demo's chain, made anew at each
   * start) in its book alone.
   */
  #writePast(chain: FollowedChain): void {
    const past = chain.plan.pastHourlySummaries;
    if (past === undefined || past.length === 0) return;
    const held = new Set(chain.record.hourlySummaries.map((summary) => summary.start));
    this.writeHourlySummaries(
      chain.plan.chainId,
      past.filter((summary) => !held.has(summary.start)),
    );
  }

  async stop(): Promise<void> {
    await Promise.all([...[...this.#chains.values()].map((chain) => chain.feed.stop()), ...this.#backfills.map((backfill) => backfill.stop())]);
    // After the feeds and backfills: nothing writes any more, and what waits gets one last attempt.
    this.#storeWriter?.stop();
  }

  get(chainId: number): ChainPublication | undefined {
    return this.#chains.get(chainId)?.publication;
  }

  list(): readonly ChainPublication[] {
    return [...this.#chains.values()].map((chain) => chain.publication);
  }

  /**
   * Keeps hourly summaries of a chain (the outlook backfill's, a demo's past): written through the store's writer
   * where the chain is kept in the file, else into its book alone; either way in its next publication.
   */
  writeHourlySummaries(chainId: number, summaries: readonly HourlySummary[]): void {
    const chain = this.#chains.get(chainId);
    if (chain === undefined) return;
    if (this.#storeWriter !== undefined && chain.plan.persistHistory !== false) this.#storeWriter.writeHourlySummaries(chainId, summaries);
    else if (chain.record.takeHourlySummaries(summaries)) this.#publishHistoryGrew(chain);
  }

  history(chainId: number): HistoryView | undefined {
    return this.#chains.get(chainId)?.record.history;
  }

  outlook(chainId: number): ChainOutlook | undefined {
    return this.#chains.get(chainId)?.outlook;
  }

  subscribe(listener: (publication: ChainPublication) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A feed's report: its blocks go into the chain's record, and the chain is published with what they changed. */
  #takeReport(chain: FollowedChain, report: FeedReport): void {
    chain.report = report;
    chain.record.takeReport(report, this.#now());
    this.#hand(chain, publish(chain.plan, report, chain.publication, chain.record.part(), chain.money));
  }

  /**
   * The chain's price or L1 fees were read anew (shared/service/costReaders.ts): the chain is published with them and
   * everything else as it stands.
   */
  setMoney(chainId: number, money: ChainMoney): void {
    const chain = this.#chains.get(chainId);
    if (chain === undefined) return;
    chain.money = money;
    this.#hand(chain, publish(chain.plan, { ...chain.report, changed: NOTHING_CHANGED }, chain.publication, chain.record.part(), money));
  }

  /**
   * The backfill wrote pages (or its progress moved): the chain is published with its history's new part and the
   * feed's health as it stands, nothing of the feed's last report taken again (no blocks changed at the head).
   */
  #publishHistoryGrew(chain: FollowedChain): void {
    this.#hand(chain, publish(chain.plan, { ...chain.report, changed: NOTHING_CHANGED }, chain.publication, chain.record.part(), chain.money));
  }

  /** Keeps the chain's newest publication and hands it to every reader; a reader that throws stops no other. */
  #hand(chain: FollowedChain, publication: ChainPublication): void {
    chain.publication = publication;
    // Before any reader: an hour closed is observed before the publication that holds it is read.
    chain.outlook.take(publication.hourlySummaries);
    for (const listener of this.#listeners) {
      try {
        listener(publication);
      } catch (error) {
        this.#logger.error("a reader of the chain's publication failed", { chainId: publication.chainId, error: String(error) });
      }
    }
  }
}
