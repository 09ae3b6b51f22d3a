import type { Logger } from "../log/logger.ts";
import { DEFAULT_BACKOFF, type BackoffOptions } from "../rpc/endpoints/backoff.ts";
import { ChainEndpoints } from "../rpc/endpoints/chainEndpoints.ts";
import { RpcEndpointError } from "../rpc/connection/errors.ts";
import type { BlockAnchor } from "./backfillAnchors.ts";
import { BackfillEndpoint } from "./backfillEndpoint.ts";
import { BackfillAnswerError } from "./backfillErrors.ts";
import { fetchBackfillPage, type BackfillPage } from "./backfillPage.ts";
import { judgeSeams, type HeldFee, type SourcedPage } from "./backfillSeams.ts";
import { DEFAULT_PAGE_BLOCKS } from "./backfillPlan.ts";
import type { BlockRange } from "./backfillRanges.ts";
import { BackfillSchedule } from "./backfillSchedule.ts";
import { BackfillStoppedError, untilAborted, waitMs } from "./backfillWait.ts";
import type { BackfillWork } from "./backfillWork.ts";

/** The gentle default: at most this many requests per second to each endpoint (the contract's "History"). */
export const DEFAULT_BACKFILL_REQUESTS_PER_SECOND = 2;
/** Per request, as the live feed's. */
export const DEFAULT_BACKFILL_REQUEST_TIMEOUT_MS = 10_000;
/** What a dispute at a page's seams is filed under in the layer: said until a later run of the backfill ends without one. */
export const SEAM_DISPUTE = "history seams";
/** The same for the outlook backfill's pages (the hours before the history). */
export const OUTLOOK_SEAM_DISPUTE = "outlook seams";
/** How long the backfill waits at most before it looks again for an endpoint to read through, while none is trusted. */
const NO_SOURCE_WAIT_MS = 1_000;
/**
 * A page whose block is dated further past the local clock than this is a lie, and its endpoint is set aside (a clock
 * may be minutes off); the history believes no date more than MAX_HEADER_AHEAD_SECONDS ahead all the same.
 */
export const DEFAULT_MAX_FUTURE_SECONDS = 15 * 60;
/** Failures in a row after which an endpoint's trouble is a warning rather than a debug line. */
export const DEFAULT_WARN_AFTER_FAILURES = 3;

export interface BackfillRunnerOptions {
  readonly chainId: number;
  /**
   * What the run is called in the log, and the dispute its seams raise: "history backfill" (default) or "outlook
   * backfill" (the hours before the history, shared/backfill/outlookBackfillWork.ts).
   */
  readonly name?: "history backfill" | "outlook backfill";
  /** The chain's endpoints (http(s) or ws(s)), when no layer is given: the runner makes a layer of its own of them. */
  readonly rpcUrls?: readonly string[];
  /** The user's name of an endpoint, by its URL (as the live feed's `rpcLabels`). */
  readonly rpcLabels?: Readonly<Record<string, string>> | undefined;
  /**
   * The chain's endpoint layer, shared with its feed and contract reads: the backfill reads through its own lane to
   * the layer's one source at a time (the endpoint the feed follows), and an endpoint it finds lying is set aside for
   * every reader. A layer given is not closed by the runner.
   */
  readonly endpoints?: ChainEndpoints;
  /**
   * The base fee the history holds for a block, and who supplied it: a page joins the history only where it agrees
   * with it at its seams (the block above it, and the block below it when held).
   */
  readonly heldFeeAt?: (block: bigint) => HeldFee | undefined;
  /** How far back the history reaches from the newest block's timestamp. */
  readonly horizonSeconds: number;
  /** The chain's block spacing as configured: the first guess of how many blocks the horizon holds. */
  readonly blockTimeMs: number;
  readonly logger: Logger;
  /**
   * Called with each page, once, newest first, with the endpoint it came from (its redacted URL), before the next page
   * is fetched. A page is held once this returns (or its promise resolves); if it throws, the backfill stops and `run`
   * rejects with that error. A seam block the history holds wrongly (by a majority of sources) comes as a page of its
   * own, without anchors.
   */
  readonly onPage: (page: BackfillPage, source: string) => void | Promise<void>;
  /** Called when the run starts, after each page, and when it ends; never after stop(). */
  readonly onProgress?: (progress: BackfillProgress) => void;
  /** JSON-RPC calls per second to each endpoint, every call counted; default 2. Infinity lifts the cap (benchmarks). */
  readonly requestsPerSecond?: number;
  /** Blocks per page at most; default 1,024 (or less where an endpoint's cap is lower). */
  readonly pageBlocks?: number;
  /** Per request; default 10 s, as the live feed's. */
  readonly requestTimeoutMs?: number;
  /** The wait after failures: 1 s doubling to 60 s by default, a Retry-After honoured up to the longest wait. */
  readonly backoff?: Partial<BackoffOptions>;
  readonly maxFutureSeconds?: number;
  readonly warnAfterFailures?: number;
  /** The wall clock in epoch ms (blocks from the future are refused against it); default Date.now. */
  readonly nowMs?: () => number;
  /** A monotonic clock in ms (rate limits and waits); default performance.now. */
  readonly monotonicMs?: () => number;
}

/** What to fetch: the history held now, and where it ends. */
export interface BackfillTarget {
  /** Every block held: the store's ranges and the live feed's. */
  readonly heldRanges: readonly BlockRange[];
  /** The newest block the live feed holds, with its exact timestamp: the backfill fetches what is missing below it. */
  readonly newest: BlockAnchor;
  /**
   * Other exact timestamps held (e.g. the store's anchors at the ends of its ranges). With one older than the horizon,
   * a restart fetches only the blocks missed, none beyond the horizon.
   */
  readonly anchors?: readonly BlockAnchor[];
}

/** How far a backfill is, as `/networks` and the dashboard show it. */
export interface BackfillProgress {
  /** Fetching now. */
  readonly running: boolean;
  /** Blocks fetched by this run. */
  readonly blocksFetched: number;
  /** Blocks still to fetch, estimated from the chain's spacing until a fetched block reaches the horizon. */
  readonly blocksToGo: number;
  /** The history reaches the horizon (or the chain's genesis): nothing older is needed. */
  readonly oldestReached: boolean;
}

/** How a run ended. */
export interface BackfillOutcome extends BackfillProgress {
  readonly pagesFetched: number;
  /** JSON-RPC calls made, over every endpoint. */
  readonly requests: number;
  /** stop() ended it before the horizon or the genesis. */
  readonly stopped: boolean;
}

/**
 * Fetches a chain's history newest first, in `eth_feeHistory` pages with exact timestamps at each page's two ends,
 * gently: at most `requestsPerSecond` JSON-RPC calls to an endpoint, through the backfill's own lane of the chain's
 * endpoint layer (the live feed's connections are never touched, so the head is never delayed), one source at a time
 * (the endpoint the feed follows, else the first the layer trusts). Each page joins the history only where it meets
 * it (the block above it, and below it where held): a page that does not is fetched again from another endpoint and
 * the sources judged (backfillSeams.ts); a liar against a majority is set aside for every reader, two stories with
 * no majority are a dispute of the chain. It stops at the horizon (a fetched block older than the newest block's
 * timestamp minus the horizon) or the genesis; told what is held, a run after a restart fetches only what is missing.
 * One run per runner.
 */
export class BackfillRunner {
  readonly #options: BackfillRunnerOptions;
  readonly #layer: ChainEndpoints;
  readonly #ownsLayer: boolean;
  readonly #stop = new AbortController();
  readonly #nowMs: () => number;
  readonly #monotonicMs: () => number;
  #endpoints: readonly BackfillEndpoint[] = [];
  #schedule: BackfillWork | undefined;
  #run: Promise<BackfillOutcome> | undefined;
  #finished = false;
  #pageFailure: { error: unknown } | undefined;
  /** A page of this run did not meet the history held, with no majority to settle it. */
  #disputed = false;
  #progress: BackfillProgress = { running: false, blocksFetched: 0, blocksToGo: 0, oldestReached: false };
  /** Wakes workers that wait for a page in flight or for an endpoint's backoff when the run ends. */
  readonly #ended = new AbortController();

  constructor(options: BackfillRunnerOptions) {
    if (options.endpoints === undefined && (options.rpcUrls ?? []).length === 0)
      throw new RangeError(`chain ${options.chainId}: a backfill needs at least one RPC URL`);
    if (!(options.blockTimeMs > 0)) throw new RangeError(`chain ${options.chainId}: the block time is positive (got ${options.blockTimeMs} ms)`);
    this.#options = options;
    this.#ownsLayer = options.endpoints === undefined;
    this.#layer =
      options.endpoints ??
      new ChainEndpoints(options.chainId, options.rpcUrls ?? [], {
        backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
        labels: options.rpcLabels,
        timeoutMs: options.requestTimeoutMs ?? DEFAULT_BACKFILL_REQUEST_TIMEOUT_MS,
      });
    this.#nowMs = options.nowMs ?? Date.now;
    this.#monotonicMs = options.monotonicMs ?? (() => performance.now());
  }

  get progress(): BackfillProgress {
    return this.#progress;
  }

  /** JSON-RPC calls made so far, per endpoint (redacted URL), in the configured order. */
  requestsByEndpoint(): { url: string; requests: number }[] {
    return this.#endpoints.map((endpoint) => ({ url: endpoint.redactedUrl, requests: endpoint.requests }));
  }

  /**
   * Fetches what `target` lacks (or the pages `work` gives); resolves when the horizon or the genesis is reached (the
   * work is complete), or at stop().
   */
  run(target: BackfillTarget | { readonly work: BackfillWork }): Promise<BackfillOutcome> {
    if (this.#run) throw new Error(`chain ${this.#options.chainId}: this backfill already ran; make a new BackfillRunner for another run`);
    this.#run = this.#runOnce(target);
    return this.#run;
  }

  /** "history backfill" or "outlook backfill", as the log says it. */
  get #name(): string {
    return this.#options.name ?? "history backfill";
  }

  /** The layer's lane the run reads through: the history's, or the outlook's own. */
  get #lane(): "backfill" | "outlook" {
    return this.#options.name === "outlook backfill" ? "outlook" : "backfill";
  }

  /** The dispute the run's seams raise in the layer (and settle when a run ends without one). */
  get #seamDispute(): string {
    return this.#options.name === "outlook backfill" ? OUTLOOK_SEAM_DISPUTE : SEAM_DISPUTE;
  }

  /** Ends the run at once: waits and requests are aborted, connections closed, no timer left. */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#ended.abort();
    for (const endpoint of this.#endpoints) endpoint.close();
    await this.#run?.catch(() => {});
    if (this.#ownsLayer) this.#layer.close();
  }

  async #runOnce(target: BackfillTarget | { readonly work: BackfillWork }): Promise<BackfillOutcome> {
    const { chainId, logger, horizonSeconds } = this.#options;
    const requestsPerSecond = this.#options.requestsPerSecond ?? DEFAULT_BACKFILL_REQUESTS_PER_SECOND;
    const schedule =
      "work" in target
        ? target.work
        : new BackfillSchedule({
            heldRanges: target.heldRanges,
            newest: target.newest,
            anchors: target.anchors ?? [],
            horizonSeconds,
            blockSpacingSeconds: this.#options.blockTimeMs / 1000,
            pageBlocks: this.#options.pageBlocks ?? DEFAULT_PAGE_BLOCKS,
          });
    this.#schedule = schedule;
    const startedAt = this.#monotonicMs();
    const firstPlan = schedule.plan();
    if (firstPlan.complete || this.#stop.signal.aborted) {
      this.#reportProgress(false);
      if (firstPlan.complete)
        logger.info(
          `chain ${chainId}: the ${this.#name === "history backfill" ? "history" : "outlook"} is complete back to block ${firstPlan.floorBlock}; nothing to backfill`,
          { chainId },
        );
      return this.#outcome();
    }
    this.#endpoints = this.#layer.endpoints.map(
      (layered) =>
        new BackfillEndpoint(this.#layer, layered, {
          requestsPerSecond,
          requestTimeoutMs: this.#options.requestTimeoutMs ?? DEFAULT_BACKFILL_REQUEST_TIMEOUT_MS,
          signal: this.#stop.signal,
          monotonicMs: this.#monotonicMs,
          lane: this.#lane,
        }),
    );
    const top = firstPlan.missing[0]!.toBlock;
    logger.info(
      `chain ${chainId}: ${this.#name} starts: about ${firstPlan.blocksToGo} blocks missing from block ${top} back, ` +
        `through one of ${this.#endpoints.length} endpoint(s) at a time, at most ${requestsPerSecond} requests/s each`,
      { chainId, ...("work" in target ? {} : { newestBlock: target.newest.block }), fromBlock: top, blocksToGo: firstPlan.blocksToGo, horizonSeconds },
    );
    this.#reportProgress(true);
    try {
      await this.#work();
    } finally {
      for (const endpoint of this.#endpoints) endpoint.close();
    }
    this.#reportProgress(false);
    const outcome = this.#outcome();
    // A run that met no disagreement at its pages' seams ends an earlier run's dispute.
    if (!this.#disputed && !outcome.stopped) this.#layer.settle(this.#seamDispute);
    const seconds = ((this.#monotonicMs() - startedAt) / 1000).toFixed(1);
    const fields = { chainId, blocksFetched: outcome.blocksFetched, pagesFetched: outcome.pagesFetched, requests: outcome.requests, seconds: Number(seconds) };
    if (this.#pageFailure) {
      logger.error(`chain ${chainId}: ${this.#name} stopped: a page could not be kept (${String(this.#pageFailure.error)})`, fields);
      throw this.#pageFailure.error;
    }
    const plan = schedule.plan();
    // A stop is said by whoever stopped it (serve's "SIGINT: stopping"): how far the backfill got is a detail.
    logger[outcome.stopped ? "debug" : "info"](
      outcome.stopped
        ? `chain ${chainId}: ${this.#name} stopped after ${outcome.blocksFetched} blocks (${outcome.requests} requests, ${seconds} s); about ${plan.blocksToGo} blocks to go`
        : `chain ${chainId}: ${this.#name} done: ${outcome.blocksFetched} blocks in ${outcome.pagesFetched} pages (${outcome.requests} requests, ${seconds} s); ${this.#options.name === "outlook backfill" ? "it" : "the history"} reaches back to block ${plan.floorBlock}`,
      fields,
    );
    return outcome;
  }

  /**
   * The run's loop: one source at a time (the layer's, the endpoint the feed follows, else the first it trusts; the
   * next trusted one while the source's lane backs off), its chain id checked, then pages newest first until none is
   * left (or the run stops).
   */
  async #work(): Promise<void> {
    const schedule = this.#schedule!;
    while (!this.#finished && !this.#stop.signal.aborted) {
      const endpoint = this.#source();
      try {
        if (endpoint === undefined) {
          await waitMs(this.#sourceWaitMs(), this.#ended.signal);
          continue;
        }
        if (!this.#layer.chainIdKnown(endpoint.layered, this.#lane)) {
          await endpoint.verify();
          continue;
        }
        // One block below the page is asked for too where the history holds it (its seam).
        const range = schedule.take(Math.max(1, endpoint.limit.maxBlocks - 1));
        if (range === undefined) {
          this.#finish();
          continue;
        }
        await this.#fetchAndKeep(endpoint, range);
      } catch (error) {
        if (error instanceof BackfillStoppedError || this.#stop.signal.aborted) return;
        if (this.#pageFailure) return;
        if (endpoint !== undefined) this.#failed(endpoint, error);
      }
    }
  }

  /** The endpoint to read through now: the layer's source, else the next one it trusts, whose lane is not backing off. */
  #source(): BackfillEndpoint | undefined {
    const preferred = this.#layer.source();
    const ready = this.#endpoints.filter((endpoint) => endpoint.trusted && endpoint.waitMs === 0);
    return ready.find((endpoint) => endpoint.layered === preferred) ?? ready[0];
  }

  /**
   * How long to wait for a source: until the first trusted lane's backoff is over, or (none trusted) a moment, after
   * which an endpoint that only asked to be left alone (a Retry-After) and whose wait is over is asked again.
   */
  #sourceWaitMs(): number {
    const trusted = this.#endpoints.filter((endpoint) => endpoint.trusted);
    if (trusted.length > 0) return Math.min(...trusted.map((endpoint) => endpoint.waitMs));
    const now = Date.now();
    for (const endpoint of this.#endpoints) this.#layer.waitOver(endpoint.layered, now);
    return NO_SOURCE_WAIT_MS;
  }

  async #fetchAndKeep(endpoint: BackfillEndpoint, range: BlockRange): Promise<void> {
    const schedule = this.#schedule!;
    const { chainId, logger } = this.#options;
    const heldAt = this.#options.heldFeeAt ?? (() => undefined);
    let kept: SourcedPage;
    let corrections: readonly { block: bigint; baseFeeWei: bigint }[] = [];
    try {
      const first = { page: await this.#fetch(endpoint, range), source: endpoint.redactedUrl };
      const verdict = judgeSeams(first, heldAt);
      if (verdict.kind === "fits") kept = first;
      else {
        // The page does not meet the history held: the same page from another endpoint, and the three judged.
        const other = this.#endpoints.find((candidate) => candidate !== endpoint && candidate.trusted);
        const second =
          other === undefined
            ? undefined
            : await this.#fetch(other, range).then(
                (page) => ({ page, source: other.redactedUrl }),
                () => undefined,
              );
        const judged = second === undefined ? undefined : judgeSeams(first, heldAt, second);
        if (judged === undefined || judged.kind === "disputed") {
          const how = judged?.how ?? `${verdict.kind === "refetch" ? verdict.how : "a seam disagrees"}, and no other endpoint answers to judge it`;
          this.#disputed = true;
          this.#layer.dispute(this.#seamDispute, how);
          logger.warn(`chain ${chainId}: a backfilled page does not meet the history held, and no majority settles it: ${how}`, { chainId });
          if (judged?.keep === undefined) throw new SeamDisputedError(endpoint.redactedUrl, how);
          kept = judged.keep;
        } else if (judged.kind === "keep") {
          for (const outlier of judged.outliers) {
            const liar = this.#endpoints.find((candidate) => candidate.redactedUrl === outlier.source);
            const error = new BackfillAnswerError(outlier.source, `its blocks disagree with the other sources': ${outlier.how}`);
            liar?.setAside(error);
            logger.warn(`chain ${chainId}: ${this.#name} sets ${outlier.source} aside for lying: ${outlier.how}`, { chainId, url: outlier.source });
          }
          kept = judged.page;
          corrections = judged.corrections;
        } else kept = first;
      }
      if (this.#stop.signal.aborted) throw new BackfillStoppedError();
    } catch (error) {
      schedule.release(range);
      throw error;
    }
    const { page } = kept;
    try {
      for (const correction of corrections) {
        await untilAborted(
          Promise.resolve(this.#options.onPage({ firstBlock: correction.block, baseFeesWei: [correction.baseFeeWei], anchors: [] }, kept.source)),
          this.#stop.signal,
        );
      }
      await untilAborted(Promise.resolve(this.#options.onPage(page, kept.source)), this.#stop.signal);
    } catch (error) {
      schedule.release(range);
      if (!(error instanceof BackfillStoppedError)) {
        this.#pageFailure = { error };
        this.#finish();
      }
      throw error;
    }
    schedule.complete(range, page);
    endpoint.markServing();
    const toBlock = page.firstBlock + BigInt(page.baseFeesWei.length) - 1n;
    logger.debug(`chain ${chainId}: backfilled blocks ${page.firstBlock}..${toBlock} through ${kept.source}`, {
      chainId,
      url: kept.source,
      blocks: page.baseFeesWei.length,
    });
    this.#reportProgress(true);
  }

  /** One page of `range` through `endpoint`, with its seams (the block below asked for where the history holds it). */
  #fetch(endpoint: BackfillEndpoint, range: BlockRange): Promise<BackfillPage> {
    const seamBelow = range.fromBlock > 0n && this.#options.heldFeeAt?.(range.fromBlock - 1n) !== undefined;
    return fetchBackfillPage(endpoint.connection, range, endpoint.limit, {
      anchors: this.#schedule!.anchors,
      nowSeconds: this.#nowMs() / 1000,
      maxFutureSeconds: this.#options.maxFutureSeconds ?? DEFAULT_MAX_FUTURE_SECONDS,
      seamBelow,
    });
  }

  /** Backs off from a failing endpoint, or sets aside one that lies or serves another chain (for every reader). */
  #failed(endpoint: BackfillEndpoint, caught: unknown): void {
    const { chainId, logger } = this.#options;
    const error = caught instanceof Error ? caught : new Error(String(caught));
    const fields = { chainId, url: endpoint.redactedUrl, error: error.message };
    if (error instanceof SeamDisputedError) {
      // Nothing to blame on one endpoint: the page is asked again after the lane's backoff, the dispute said meanwhile.
      endpoint.markFailing(error);
      return;
    }
    if (!(error instanceof RpcEndpointError)) {
      // Another chain, garbage or answers that contradict each other: set aside for every reader of the chain.
      endpoint.setAside(error);
      logger.warn(`chain ${chainId}: ${this.#name} sets ${endpoint.redactedUrl} aside: ${error.message}`, fields);
      return;
    }
    const { waitMs: waitedMs, failuresInARow, askedByEndpoint } = endpoint.markFailing(error);
    const warnAfter = this.#options.warnAfterFailures ?? DEFAULT_WARN_AFTER_FAILURES;
    // A wait the endpoint asked for (a Retry-After) is said: every reader of the chain waits it out.
    const level = failuresInARow === warnAfter || (askedByEndpoint && failuresInARow === 1) ? "warn" : "debug";
    logger[level](
      `chain ${chainId}: ${this.#name}: ${endpoint.redactedUrl} failed ${failuresInARow} time(s) in a row; asking it again in ${waitedMs} ms`,
      fields,
    );
  }

  #finish(): void {
    this.#finished = true;
    this.#ended.abort();
  }

  #reportProgress(running: boolean): void {
    const schedule = this.#schedule;
    if (!schedule) return;
    const plan = schedule.plan();
    this.#progress = Object.freeze({
      running,
      blocksFetched: schedule.blocksFetched,
      blocksToGo: plan.blocksToGo + schedule.blocksInFlight,
      oldestReached: plan.complete && schedule.pagesInFlight === 0,
    });
    if (this.#stop.signal.aborted) return;
    try {
      this.#options.onProgress?.(this.#progress);
    } catch (error) {
      this.#options.logger.error(`the ${this.#name}'s onProgress listener failed`, { chainId: this.#options.chainId, error: String(error) });
    }
  }

  #outcome(): BackfillOutcome {
    const schedule = this.#schedule!;
    return Object.freeze({
      ...this.#progress,
      pagesFetched: schedule.pagesFetched,
      requests: this.#endpoints.reduce((sum, endpoint) => sum + endpoint.requests, 0),
      stopped: this.#stop.signal.aborted && !this.#progress.oldestReached,
    });
  }
}

/** A page that does not meet the history held, with no majority to say who is right: nothing of it is kept. */
class SeamDisputedError extends Error {
  override name = "SeamDisputedError";
  constructor(url: string, how: string) {
    super(`a page from ${url} does not meet the history held, and no majority settles it: ${how}`);
  }
}
