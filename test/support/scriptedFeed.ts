// The real FeeService with feeds that a test scripts instead of RPC endpoints: each step of the script (blocks
// written, a phase, endpoints) is made into a real FeedReport by the feed's own report maker (rpc/feed/nextFeedReport.ts)
// and handed to the service through the `createFeed` seam, so that the service writes the blocks into the chain's
// record, computes the statistics there and publishes, as it does for a real chain. Servers, alerts and metrics under
// test read those publications.
import type { BlockTips } from "../../shared/core/fees/recentTips.ts";
import type { BlockAnchor } from "../../shared/core/history/blockAnchor.ts";
import { parseWindowSpec } from "../../shared/core/history/duration.ts";
import { type Logger, silentLogger } from "../../shared/log/logger.ts";
import type { ChainFeedOptions } from "../../shared/rpc/feed/chainFeed.ts";
import type { EndpointCallCount } from "../../shared/rpc/endpoints/endpointPool.ts";
import type { FeedPhase, FeedReport } from "../../shared/rpc/feed/feedReport.ts";
import { type FeedView, firstFeedReport, nextFeedReport } from "../../shared/rpc/feed/nextFeedReport.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import type { ChainPublication } from "../../shared/service/chainPublication.ts";
import type { ChainRecord, HistoryPersistence, RecordWrite } from "../../shared/service/chainRecord.ts";
import { type Feed, FeeService, type FeeServiceOptions } from "../../shared/service/feeService.ts";
import type { FeeSource } from "../../shared/service/feeSource.ts";
import type { BackfillStatus, EndpointStatus } from "../../shared/wire/networkStatus.ts";

/** What a write says beyond its blocks. */
export interface WriteOptions {
  /** Epoch ms at which the blocks arrived; default the script's clock now. */
  readonly newDataAt?: number;
  /** The base fee of the block after the newest one, as an endpoint reports it; default none (the newest block's is current). */
  readonly nextBaseFeeWei?: bigint;
  /** The tips of the newest blocks, as they are from now on (not merged with earlier ones); default none. */
  readonly recentTips?: readonly BlockTips[];
  /** The blocks' blob base fees (one per block), as an endpoint with EIP-4844 gives them; default none. */
  readonly blobBaseFeesWei?: readonly bigint[];
  /** The blocks' gas-used ratios (one per block); default none. */
  readonly gasUsedRatios?: readonly number[];
  /** The blob base fee of the block after the newest one; default none. */
  readonly nextBlobBaseFeeWei?: bigint;
  /**
   * Header timestamps seen with the blocks. Default: the newest block written, dated at `newDataAt` (in whole
   * seconds, as headers are), as a poll reads the newest header with the fees. `[]` for none: the history then dates
   * the blocks by the service's clock.
   */
  readonly anchors?: readonly BlockAnchor[];
}

/** The feed's health as a step of the script sets it. */
export interface HealthOptions {
  /** Epoch ms of the newest new data; default unchanged. */
  readonly newDataAt?: number;
  readonly endpoints?: readonly EndpointStatus[];
  readonly callCounts?: readonly EndpointCallCount[];
}

const NONE: readonly never[] = Object.freeze([]);

/**
 * One chain's feed, scripted: what FeeService needs of a ChainFeed (chainId, report, start, stop, and each report
 * handed to the `onReport` of its options), with the blocks, phase and endpoints set by the test. Like a ChainFeed,
 * it reports only once started and never after it stopped, reports only what changed (nothing when nothing did), and
 * reports a chain without a base fee as such once started.
 */
export class ScriptedFeed implements Feed {
  readonly #options: ChainFeedOptions;
  readonly #noBaseFee: boolean;
  readonly #now: () => number;
  #report: FeedReport;
  #started = false;
  #stopped = false;

  constructor(options: ChainFeedOptions, script: { readonly noBaseFee?: boolean; readonly now?: () => number } = {}) {
    this.#options = options;
    this.#noBaseFee = script.noBaseFee ?? false;
    this.#now = script.now ?? (() => Date.now());
    this.#report = firstFeedReport(options.chainId, NONE);
  }

  get chainId(): number {
    return this.#options.chainId;
  }

  get report(): FeedReport {
    return this.#report;
  }

  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    if (this.#noBaseFee) this.#tell({ phase: "no-base-fee" });
  }

  stop(): Promise<void> {
    this.#stopped = true;
    return Promise.resolve();
  }

  /**
   * Consecutive blocks from `firstBlock` (new, or re-mined: another fee for a block held), as a believed answer
   * brings them: the phase turns ok, the newest block is the newest written (or the one held, if newer).
   */
  write(firstBlock: bigint, baseFeesWei: readonly bigint[], options: WriteOptions = {}): FeedReport {
    if (this.#noBaseFee) throw new Error(`chain ${this.chainId} has no base fee: its feed reports no blocks`);
    if (baseFeesWei.length === 0) throw new Error("a write has blocks");
    const newDataAt = options.newDataAt ?? this.#now();
    const newestWritten = firstBlock + BigInt(baseFeesWei.length - 1);
    const held = this.#report.newestBlock;
    return this.#tell({
      blocks: [
        Object.freeze({
          firstBlock,
          baseFeesWei: Object.freeze([...baseFeesWei]),
          ...(options.blobBaseFeesWei ? { blobBaseFeesWei: Object.freeze([...options.blobBaseFeesWei]) } : {}),
          ...(options.gasUsedRatios ? { gasUsedRatios: Object.freeze([...options.gasUsedRatios]) } : {}),
        }),
      ],
      newestBlock: held !== undefined && held > newestWritten ? held : newestWritten,
      nextBaseFeeWei: options.nextBaseFeeWei,
      nextBlobBaseFeeWei: options.nextBlobBaseFeeWei,
      recentTips: options.recentTips ?? NONE,
      newDataAt,
      phase: "ok",
      anchors: options.anchors ?? [{ block: newestWritten, timestamp: Math.floor(newDataAt / 1000) }],
    });
  }

  /** A new phase (every endpoint failing: "degraded", say) with the data held, and the health given. */
  setPhase(phase: FeedPhase, options: HealthOptions = {}): FeedReport {
    return this.#tell({ phase, ...options });
  }

  /** Hands the service the report that follows the newest one for what changed; the newest report when nothing did. */
  #tell(change: Partial<FeedView>): FeedReport {
    if (!this.#started || this.#stopped) throw new Error(`the scripted feed of chain ${this.chainId} is ${this.#stopped ? "stopped" : "not started"}`);
    const previous = this.#report;
    const next = nextFeedReport(previous, {
      blocks: NONE,
      newestBlock: previous.newestBlock,
      nextBaseFeeWei: previous.nextBaseFeeWei,
      nextBlobBaseFeeWei: previous.nextBlobBaseFeeWei,
      recentTips: previous.recentTips,
      newDataAt: previous.newDataAt,
      phase: previous.phase,
      endpoints: previous.endpoints,
      anchors: NONE,
      callCounts: previous.callCounts,
      ...change,
    });
    if (next === undefined) return previous;
    this.#report = next;
    this.#options.onReport?.(next);
    return next;
  }
}

/** One chain as a test describes it; the plan's defaults fill in the rest. */
export interface ScriptedChain {
  readonly chainId: number;
  /** Default `Chain <id>`. */
  readonly name?: string;
  /** Default 12 s. */
  readonly blockTimeMs?: number;
  /** The statistics window as the settings write it ("24h", "500 blocks"); wins over statsWindowBlocks. */
  readonly statsWindow?: string;
  /** The statistics window in blocks; 500 unless statsWindow is given (the service's own default is "24h"). */
  readonly statsWindowBlocks?: number;
  /** Default the plan's ("7d"). */
  readonly historyHorizon?: string;
  /**
   * Whether the chain has a blob market of its own; default true, whatever its id: a scripted chain has the blob fees
   * its script writes (the tests name chains by id, not by kind).
   */
  readonly blobMarket?: boolean;
  /** Keep the chain's history in the service's store, when it has one (default true). */
  readonly persistHistory?: boolean;
  /** A chain without an EIP-1559 base fee: its feed says so once started. */
  readonly noBaseFee?: boolean;
}

export interface ScriptedServiceOptions {
  /**
   * The service's clock (epoch ms), and the default time of the script's writes and pages; default Date.now() (the
   * mocked one where a test mocks Date).
   */
  readonly now?: () => number;
  /** Where the service keeps histories (a real HistoryStore on a temp file); default none: in memory only. */
  readonly store?: HistoryPersistence;
  readonly logger?: Logger;
  /** How the chains' outlooks are prepared (FeeServiceOptions' outlook); default the service's. */
  readonly outlook?: FeeServiceOptions["outlook"];
}

/** The real FeeService, started, its chains' feeds and backfills played by the test. */
export interface ScriptedService {
  /** What the readers under test read: the real service's publications and histories. */
  readonly service: FeeService;
  feed(chainId: number): ScriptedFeed;
  /** `feed(chainId).write(…)`. */
  write(chainId: number, firstBlock: bigint, baseFeesWei: readonly bigint[], options?: WriteOptions): FeedReport;
  /** `feed(chainId).setPhase(…)`. */
  setPhase(chainId: number, phase: FeedPhase, options?: HealthOptions): FeedReport;
  /** A page of a backfill (older blocks, gaps), written as the backfill writes it (ChainBackfill: into the record, then the chain is published). */
  backfillPage(chainId: number, page: RecordWrite, nowMs?: number): void;
  /** A backfill's progress, reported as the backfill reports it (the chain is then published). */
  backfillProgress(chainId: number, status: BackfillStatus): void;
}

/** The plan the service follows a scripted chain by. */
export function scriptedPlan(chain: ScriptedChain): ChainPlan {
  const window = chain.statsWindow === undefined ? undefined : parseWindowSpec(chain.statsWindow);
  if (chain.statsWindow !== undefined && window === undefined) throw new Error(`"${chain.statsWindow}" is not a statistics window`);
  return {
    chainId: chain.chainId,
    name: chain.name ?? `Chain ${chain.chainId}`,
    rpcUrls: [],
    blockTimeMs: chain.blockTimeMs ?? 12_000,
    ...(window === undefined ? { statsWindowBlocks: chain.statsWindowBlocks ?? 500 } : { statsWindow: window }),
    ...(chain.historyHorizon === undefined ? {} : { historyHorizon: chain.historyHorizon }),
    ...(chain.persistHistory === undefined ? {} : { persistHistory: chain.persistHistory }),
    blobMarket: chain.blobMarket ?? true,
  };
}

/** Builds the real FeeService over scripted feeds for `chains` (no RPC) and starts it. */
export function scriptedService(chains: readonly ScriptedChain[], options: ScriptedServiceOptions = {}): ScriptedService {
  const now = options.now ?? (() => Date.now());
  const feeds = new Map<number, ScriptedFeed>();
  const backfills = new Map<number, { readonly record: ChainRecord; readonly republish: () => void }>();
  const noBaseFee = new Set(chains.filter((chain) => chain.noBaseFee).map((chain) => chain.chainId));
  const service = new FeeService(chains.map(scriptedPlan), {
    logger: options.logger ?? silentLogger,
    now,
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.outlook === undefined ? {} : { outlook: options.outlook }),
    createFeed: (feedOptions) => {
      const feed = new ScriptedFeed(feedOptions, { noBaseFee: noBaseFee.has(feedOptions.chainId), now });
      feeds.set(feedOptions.chainId, feed);
      return feed;
    },
    startBackfill: (plan, record, republish) => {
      backfills.set(plan.chainId, { record, republish });
      return { stop: () => Promise.resolve() };
    },
  });
  service.start();
  const feed = (chainId: number) => {
    const found = feeds.get(chainId);
    if (found === undefined) throw new Error(`chain ${chainId} is not one of this test's chains`);
    return found;
  };
  const backfill = (chainId: number) => {
    feed(chainId);
    return backfills.get(chainId)!;
  };
  return {
    service,
    feed,
    write: (chainId, firstBlock, baseFeesWei, writeOptions) => feed(chainId).write(firstBlock, baseFeesWei, writeOptions),
    setPhase: (chainId, phase, healthOptions) => feed(chainId).setPhase(phase, healthOptions),
    backfillPage: (chainId, page, nowMs = now()) => {
      const { record, republish } = backfill(chainId);
      record.writePage(page, nowMs);
      republish();
    },
    backfillProgress: (chainId, status) => {
      const { record, republish } = backfill(chainId);
      record.setBackfill(status);
      republish();
    },
  };
}

/** `source` as its readers see it, counting the listeners they hold: to prove that a reader lets go of its subscription. */
export function countingListeners(source: FeeSource): FeeSource & { readonly listenerCount: number } {
  let count = 0;
  return {
    get: (chainId) => source.get(chainId),
    list: () => source.list(),
    history: (chainId) => source.history(chainId),
    outlook: (chainId) => source.outlook(chainId),
    subscribe: (listener: (publication: ChainPublication) => void) => {
      const unsubscribe = source.subscribe(listener);
      count++;
      let subscribed = true;
      return () => {
        if (subscribed) count--;
        subscribed = false;
        unsubscribe();
      };
    },
    get listenerCount() {
      return count;
    },
  };
}
