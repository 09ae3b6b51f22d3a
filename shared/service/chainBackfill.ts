import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import { BackfillRunner, type BackfillProgress, type BackfillRunnerOptions } from "../backfill/backfillRunner.ts";
import { BlockRangeSet, type BlockRange } from "../backfill/backfillRanges.ts";
import type { Logger } from "../log/logger.ts";
import type { ChainEndpoints } from "../rpc/endpoints/chainEndpoints.ts";
import type { BackfillStatus } from "../wire/networkStatus.ts";
import { type ChainPlan, historyHorizonOf } from "./chainPlan.ts";
import type { ChainOutlookBackfill } from "./chainOutlookBackfill.ts";
import type { ChainRecord } from "./chainRecord.ts";

/** How often to look again for blocks missing within the horizon (a gap left by a sleep, a run that ended early). */
const RECHECK_MS = 60_000;
/** Until the head's first exact timestamp arrives, look this often. */
const WAIT_FOR_HEAD_MS = 500;

export interface ChainBackfillOptions {
  readonly logger: Logger;
  /** Called after each page and each change of progress, so that the chain's publication follows. */
  readonly republish: () => void;
  /** Passed on to the runner (tests and benchmarks lift the rate cap or shorten the backoff). */
  readonly runner?: Partial<Pick<BackfillRunnerOptions, "requestsPerSecond" | "backoff" | "requestTimeoutMs" | "pageBlocks">>;
  /** Epoch ms. */
  readonly now?: () => number;
  /**
   * The chain's endpoint layer, shared with its feed and contract reads; without one, each run makes its own of the
   * plan's URLs.
   */
  readonly endpoints?: ChainEndpoints;
  /** The chain's outlook backfill: told each time a run reaches the horizon (it reads the hours before it, once done). */
  readonly outlook?: ChainOutlookBackfill;
}

/**
 * Keeps one chain's history whole back to its horizon: once the live feed has the head (with its header's exact
 * time), runs a backfill for what the history lacks, writes each page into the chain's record, reports its progress
 * (the service publishes the chain with it), and looks again every minute for gaps (time away, a sleep), running again
 * when there are any.
 */
export class ChainBackfill {
  readonly #plan: ChainPlan;
  readonly #record: ChainRecord;
  readonly #options: ChainBackfillOptions;
  readonly #now: () => number;
  #runner: BackfillRunner | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  /** A run reached the horizon (or the genesis): later runs are needed only for gaps. */
  #reachedOldest = false;
  #unsubscribe: (() => void) | undefined;

  constructor(plan: ChainPlan, record: ChainRecord, options: ChainBackfillOptions) {
    this.#plan = plan;
    this.#record = record;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  start(): void {
    // An endpoint found lying (by the backfill, the feed or a cross-check): the blocks it supplied are fetched again
    // from an honest one at once, written over its own.
    this.#unsubscribe = this.#options.endpoints?.onChange((endpoint) => {
      if (this.#stopped || endpoint?.setAsideFor !== "disagrees" || this.#record.blocksFrom(endpoint.redactedUrl).length === 0) return;
      this.#options.logger.warn(`chain ${this.#plan.chainId}: the blocks ${endpoint.redactedUrl} supplied are fetched again from another endpoint`, {
        chainId: this.#plan.chainId,
        url: endpoint.redactedUrl,
      });
      const runner = this.#runner;
      clearTimeout(this.#timer);
      void (runner?.stop() ?? Promise.resolve()).then(() => {
        if (this.#runner === runner) this.#schedule(0);
      });
    });
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    clearTimeout(this.#timer);
    await Promise.all([this.#runner?.stop(), this.#options.outlook?.stop()]);
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => void this.#runOnce(), delayMs);
    this.#timer.unref();
  }

  async #runOnce(): Promise<void> {
    const history = this.#record.history;
    const { newest, all } = history.edgeAnchors();
    const live = this.#record.liveNewestBlock;
    // From the live head, not from what the store held before: wait for the feed's blocks and a header among them.
    if (newest === undefined || live === undefined || newest.block <= live - BigInt(HISTORY_BLOCKS)) {
      this.#schedule(WAIT_FOR_HEAD_MS);
      return;
    }
    const lies = this.#liedRanges();
    const heldRanges = lies.length === 0 ? history.heldRanges() : without(history.heldRanges(), lies);
    if (this.#reachedOldest && heldRanges.length <= 1 && lies.length === 0) {
      this.#schedule(RECHECK_MS);
      return;
    }
    // The history first: an outlook backfill running meanwhile stops, and goes on from what it kept once this run is done
    // (never two backfills at 2 requests a second each to one endpoint).
    await this.#options.outlook?.pause();
    if (this.#stopped) return;
    const horizon = historyHorizonOf(this.#plan);
    const layer = this.#options.endpoints;
    const runner = new BackfillRunner({
      chainId: this.#plan.chainId,
      ...(layer === undefined ? { rpcUrls: this.#plan.rpcUrls, rpcLabels: this.#plan.rpcLabels } : { endpoints: layer }),
      // Blocks a liar supplied are no witness at a seam: they are to be replaced.
      heldFeeAt: (block) => {
        const held = this.#record.heldFeeAt(block);
        return held === undefined || this.#isLiar(held.source) ? undefined : held;
      },
      horizonSeconds: horizon.seconds,
      blockTimeMs: this.#plan.blockTimeMs,
      logger: this.#options.logger,
      ...this.#options.runner,
      onPage: (page, source) => {
        this.#record.writePage(page, this.#now(), source);
        this.#options.republish();
      },
      onProgress: (progress) => {
        this.#record.setBackfill(this.#status(progress, horizon.seconds));
        this.#options.republish();
      },
    });
    this.#runner = runner;
    try {
      const outcome = await runner.run({ heldRanges, newest, anchors: all });
      if (outcome.oldestReached) {
        this.#reachedOldest = true;
        this.#options.outlook?.historyReady();
      }
    } catch (error) {
      this.#options.logger.warn("the history backfill stopped; it tries again in a minute", { chainId: this.#plan.chainId, error: String(error) });
    }
    this.#schedule(RECHECK_MS);
  }

  /** Whether `source` is an endpoint of the chain set aside for lying. */
  #isLiar(source: string | undefined): boolean {
    return (
      source !== undefined &&
      this.#options.endpoints?.endpoints.some((endpoint) => endpoint.redactedUrl === source && endpoint.setAsideFor === "disagrees") === true
    );
  }

  /** The blocks held that endpoints set aside for lying supplied in this run: to fetch again. */
  #liedRanges(): BlockRange[] {
    const liars = this.#options.endpoints?.endpoints.filter((endpoint) => endpoint.setAsideFor === "disagrees") ?? [];
    return liars.flatMap((liar) => this.#record.blocksFrom(liar.redactedUrl).map(({ fromBlock, toBlock }) => ({ fromBlock, toBlock })));
  }

  /** The progress as /networks shows it: the share of the horizon held, and the blocks to go. */
  #status(progress: BackfillProgress, horizonSeconds: number): BackfillStatus {
    const { oldest, newest } = this.#record.history;
    const spanSeconds = oldest && newest ? newest.timestamp - oldest.timestamp : 0;
    const share = progress.oldestReached ? 1 : Math.min(1, Math.max(0, spanSeconds / horizonSeconds));
    return {
      running: progress.running,
      progress: Math.round(share * 1_000) / 1_000,
      blocksToGo: progress.running || !progress.oldestReached ? progress.blocksToGo : 0,
    };
  }
}

/** `held` without the blocks of `removed`. */
function without(held: readonly BlockRange[], removed: readonly BlockRange[]): BlockRange[] {
  let ranges: BlockRange[] = [...held];
  for (const cut of removed) {
    ranges = ranges.flatMap((range) => {
      if (range.toBlock < cut.fromBlock || range.fromBlock > cut.toBlock) return [range];
      const parts: BlockRange[] = [];
      if (range.fromBlock < cut.fromBlock) parts.push({ fromBlock: range.fromBlock, toBlock: cut.fromBlock - 1n });
      if (range.toBlock > cut.toBlock) parts.push({ fromBlock: cut.toBlock + 1n, toBlock: range.toBlock });
      return parts;
    });
  }
  return new BlockRangeSet(ranges).ranges.slice();
}
