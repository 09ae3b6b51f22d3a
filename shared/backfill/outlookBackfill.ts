import type { HourlySummary } from "../core/outlook/hourlySummary.ts";
import { HOUR_SECONDS } from "../core/outlook/hourlySummary.ts";
import type { Logger } from "../log/logger.ts";
import type { ChainEndpoints } from "../rpc/endpoints/chainEndpoints.ts";
import type { BlockAnchor } from "./backfillAnchors.ts";
import { DEFAULT_PAGE_BLOCKS } from "./backfillPlan.ts";
import { BackfillRunner, type BackfillOutcome, type BackfillRunnerOptions } from "./backfillRunner.ts";
import type { HeldFee } from "./backfillSeams.ts";
import { planOutlookBackfill } from "./outlookBackfillPlan.ts";
import { OutlookBackfillWork } from "./outlookBackfillWork.ts";

/** How far the outlook backfill is, as `/networks` shows it (history.outlookBackfill). */
export interface OutlookBackfillProgress {
  /** Fetching now. */
  readonly running: boolean;
  /** The hours it fills: `fromTime` (included) to `toTime` (excluded), unix s. */
  readonly fromTime: number;
  readonly toTime: number;
  /** Hours of the span held (summarised now or before). */
  readonly hoursHeld: number;
  /** Hours in the span. */
  readonly hoursWanted: number;
  /** `every` block read, or one page an hour `sampled`. */
  readonly mode: "every" | "sampled";
}

export interface OutlookBackfillOptions {
  readonly chainId: number;
  /** The chain's endpoint layer: the outlook reads through its own lane ("outlook"), as the history's backfill reads through its. */
  readonly endpoints: ChainEndpoints;
  /** The history's oldest block with its exact timestamp: the outlook's hours end at the start of its hour. */
  readonly floor: BlockAnchor;
  /** The history's fee of `floor` (and who supplied it): the first page's seam is judged against it. */
  readonly floorFee: () => HeldFee | undefined;
  /** Other exact timestamps known. */
  readonly anchors?: readonly BlockAnchor[];
  /** `outlookBackfill` in seconds. */
  readonly spanSeconds: number;
  /** The chain's seconds per block (observed, else as configured). */
  readonly blockSpacingSeconds: number;
  /** The history's fees of its oldest hour from `floor` up, where it holds all of them (OutlookBackfillWork's floorHourFees). */
  readonly floorHourFees?: readonly bigint[];
  /** The summaries held for hours of the span (an hour held is not fetched again). */
  readonly heldHours: readonly Pick<HourlySummary, "start" | "sampled">[];
  /** Keeps summaries (newest first, as they complete); the run stops if it throws. */
  readonly write: (summaries: readonly HourlySummary[]) => void | Promise<void>;
  readonly logger: Logger;
  readonly onProgress?: (progress: OutlookBackfillProgress) => void;
  /** Passed on to the runner (tests and benchmarks lift the rate cap or shorten the backoff). */
  readonly runner?: Partial<Pick<BackfillRunnerOptions, "requestsPerSecond" | "backoff" | "requestTimeoutMs" | "pageBlocks" | "nowMs">>;
}

/**
 * The outlook backfill of one chain (CONTRACT.md, "Outlook: wait or pay now"): `outlookBackfill` of hourly summaries
 * before the history's horizon, newest first, through the chain's endpoint layer on a lane of its own, as gently as the
 * history's backfill (the same runner: 2 requests a second by default, health, backoff, Retry-After, chain-id check,
 * set-aside, pages judged at their seams and bounded). Every block where that is at most 2,000 pages, else one page an
 * hour (`sampled`). Hours held are not fetched again. One run per instance.
 */
export class OutlookBackfill {
  readonly #options: OutlookBackfillOptions;
  readonly #work: OutlookBackfillWork;
  readonly #runner: BackfillRunner;
  readonly #heldBefore: number;

  constructor(options: OutlookBackfillOptions) {
    this.#options = options;
    const pageBlocks = options.runner?.pageBlocks ?? DEFAULT_PAGE_BLOCKS;
    const { mode } = planOutlookBackfill({ spanSeconds: options.spanSeconds, blockSpacingSeconds: options.blockSpacingSeconds, pageBlocks });
    this.#work = new OutlookBackfillWork({
      floor: options.floor,
      anchors: options.anchors ?? [],
      spanSeconds: options.spanSeconds,
      mode,
      blockSpacingSeconds: options.blockSpacingSeconds,
      pageBlocks,
      heldHours: options.heldHours,
      ...(options.floorHourFees === undefined ? {} : { floorHourFees: options.floorHourFees }),
    });
    this.#heldBefore = this.#hoursInSpan - this.#work.hoursWanted.length;
    const work = this.#work;
    this.#runner = new BackfillRunner({
      chainId: options.chainId,
      name: "outlook backfill",
      endpoints: options.endpoints,
      heldFeeAt: (block) => work.heldFeeAt(block, options.floorFee),
      horizonSeconds: options.spanSeconds,
      blockTimeMs: options.blockSpacingSeconds * 1000,
      logger: options.logger,
      ...options.runner,
      onPage: async (page, source) => {
        const summaries = work.keep(page, source);
        if (summaries.length > 0) await options.write(summaries);
      },
      onProgress: (progress) => this.#report(progress.running),
    });
  }

  get progress(): OutlookBackfillProgress {
    return this.#progressOf(false);
  }

  get mode(): "every" | "sampled" {
    return this.#work.mode;
  }

  /** JSON-RPC calls made so far, per endpoint. */
  requestsByEndpoint(): { url: string; requests: number }[] {
    return this.#runner.requestsByEndpoint();
  }

  /** Fetches the hours missing; resolves when every one was tried, or at stop(). */
  async run(): Promise<BackfillOutcome> {
    const { chainId, logger } = this.#options;
    const work = this.#work;
    if (work.hoursWanted.length > 0)
      logger.info(
        `chain ${chainId}: outlook backfill: ${work.hoursWanted.length} of ${this.#hoursInSpan} hours before the history to read ` +
          `(${work.mode === "every" ? "every block" : "one page an hour, sampled"}), newest first`,
        { chainId, fromTime: work.fromTime, toTime: work.toTime, hoursWanted: work.hoursWanted.length, mode: work.mode },
      );
    return this.#runner.run({ work });
  }

  stop(): Promise<void> {
    return this.#runner.stop();
  }

  get #hoursInSpan(): number {
    return (this.#work.toTime - this.#work.fromTime) / HOUR_SECONDS;
  }

  #progressOf(running: boolean): OutlookBackfillProgress {
    const work = this.#work;
    return Object.freeze({
      running,
      fromTime: work.fromTime,
      toTime: work.toTime,
      hoursHeld: this.#heldBefore + work.hoursDone,
      hoursWanted: this.#hoursInSpan,
      mode: work.mode,
    });
  }

  #report(running: boolean): void {
    try {
      this.#options.onProgress?.(this.#progressOf(running));
    } catch (error) {
      this.#options.logger.error("the outlook backfill's onProgress listener failed", { chainId: this.#options.chainId, error: String(error) });
    }
  }
}
