import { HISTORY_BLOCKS } from "../../core/fees/historyLength.ts";
import type { BlockAnchor } from "../../core/history/blockAnchor.ts";
import type { Logger } from "../../log/logger.ts";
import { BlockAnchors } from "./blockAnchors.ts";
import { ChainHead, DEFAULT_REORG_DEPTH_BLOCKS, type HeadVerdict } from "./chainHead.ts";
import { DEFAULT_BACKOFF, type BackoffOptions, type Endpoint, EndpointPool } from "../endpoints/endpointPool.ts";
import { BlockCrossCheck } from "../endpoints/blockCrossCheck.ts";
import { ChainEndpoints } from "../endpoints/chainEndpoints.ts";
import { MalformedRpcResponseError, RpcEndpointError, SuspectEndpointError, WrongChainError } from "../connection/errors.ts";
import type { FeedBlocks, FeedPhase, FeedReport } from "./feedReport.ts";
import { nextFeeHistoryRequest } from "./feeHistoryRequest.ts";
import { FeeHistoryState } from "./feeHistoryState.ts";
import { DroppedBlobFields } from "./droppedBlobFields.ts";
import { fetchBaseFees } from "./fetchBaseFees.ts";
import { firstFeedReport, nextFeedReport } from "./nextFeedReport.ts";
import { headerAnchor } from "./headerAnchor.ts";
import { parseLatestBlock } from "../connection/parseRpcAnswers.ts";
import { PollSchedule } from "./pollSchedule.ts";

export interface ChainFeedOptions {
  chainId: number;
  /** http(s) or ws(s); in order of preference, failing over between them. */
  rpcUrls: readonly string[];
  /** The user's name of an endpoint, by its URL: shown after its origin (the only part of its URL ever shown). */
  rpcLabels?: Readonly<Record<string, string>> | undefined;
  /**
   * The chain's block time as configured or assumed: http(s) endpoints are polled once per block time (clamped to
   * 1..12 s) until the chain's own blocks tell their rhythm (PollSchedule), unless pollIntervalMs is given.
   */
  blockTimeMs: number;
  /** Blocks to hold (>= 500): the statistics window; the history is the newest 500 of them. */
  windowBlocks: number;
  logger: Logger;
  /**
   * Polls http(s) endpoints on this fixed interval, for their fees alone, instead of when blocks are due with the
   * newest header (tests that count calls, a baseline to compare with). Headers then come from endpoint checks only.
   */
  pollIntervalMs?: number;
  /**
   * Called with each new report, synchronously, on every change: new or re-mined blocks, the phase or an endpoint's
   * status, or only `newDataAt` (new tips or next fee, no new block). Never called after stop().
   */
  onReport?: (report: FeedReport) => void;
  /** Per request; default 10 s. */
  requestTimeoutMs?: number;
  /** Wait before retrying a failing endpoint: 1 s doubling to 60 s by default. */
  backoff?: Partial<BackoffOptions>;
  /** Recent blocks read again on each poll so that re-mined blocks are corrected; default 8. */
  overlapBlocks?: number;
  /** How deep the chain may reorganise, in blocks: a deeper rewrite sets its endpoint aside. Default 64. */
  reorgDepthBlocks?: number;
  /**
   * The newest block of the history held from before (a restart), with its timestamp (unix seconds): the first
   * answers are judged against it as against any head the chain has shown.
   */
  heldHead?: { readonly block: bigint; readonly timestamp: number };
  /**
   * The newest blocks of the history held from before (a restart), consecutive: the feed starts from them, asking only
   * for the blocks after them (and its overlap, checked against them), instead of the whole window again.
   */
  heldBlocks?: FeedBlocks;
  /** How often an endpoint in use has its chain id checked again; default CHAIN_ID_RECHECK_MS. */
  chainIdRecheckMs?: number;
  /**
   * The chain's endpoint layer, shared with the backfill and the contract reads (one health per endpoint); without
   * one, the feed makes its own of `rpcUrls`. The feed does not close a layer it was given.
   */
  endpoints?: ChainEndpoints;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_OVERLAP_BLOCKS = 8;
/** An endpoint that answered a batch with one error is asked for fees alone (no header) for this long, then tried again. */
export const BATCH_REFUSAL_MEMORY_MS = 10 * 60_000;
/**
 * An http poll brings the newest block's header (a second call in its batch) while the chain's rhythm is learned (the
 * first HEADERS_TO_LEARN headers), then once the newest header seen is HEADER_EVERY_BLOCKS blocks behind: in between,
 * the next poll is timed from the header's time and the chain's rhythm, and the history interpolates between headers.
 * So a poll costs one JSON-RPC call, and about one in sixteen two (the bench's call budget: at most 1.2 per block).
 */
export const HEADER_EVERY_BLOCKS = 16;
export const HEADERS_TO_LEARN = 8;
/** An endpoint in use has its `eth_chainId` checked again this often (besides on connecting and on turning suspect). */
export const CHAIN_ID_RECHECK_MS = 5 * 60_000;

/**
 * Follows one chain through its RPC endpoints and publishes what it knows as one immutable FeedReport per change.
 *
 * This is the loop and its timers: scheduling, failover, verification, the ws subscription and background retries.
 * What the answers say is kept by a FeeHistoryState, the endpoints' health by the EndpointPool.
 *
 * Each endpoint's `eth_chainId` is checked when it connects (and again when it recovers, when its answers turn
 * suspect, and every CHAIN_ID_RECHECK_MS); one reporting another chain is never used. No answer is taken on its word:
 * each head and rewrite is judged against what the chain has shown (ChainHead), and an endpoint whose answer does not
 * fit is set aside as suspect, its answer dropped, until it agrees with the chain again. The window is backfilled with `eth_feeHistory` (one request when the endpoint allows it,
 * split otherwise), then followed with one `eth_feeHistory(n, "latest")` per poll (http) or per `newHeads`
 * notification (ws) that returns the new blocks and re-reads the last few, so a re-mined block's base fee
 * replaces the old one. On errors it fails over down the list, backs off from failing endpoints, keeps the data
 * it holds, and catches up with no gap once an endpoint answers again.
 *
 * An http(s) poll reads the newest block's header in the same request as its fees (a JSON-RPC batch), a ws endpoint
 * pushes it: its timestamp goes out as an anchor in the next report (BlockAnchors), and times the next poll, which is
 * due when the next block is expected at the endpoint (PollSchedule).
 */
export class ChainFeed {
  readonly #options: ChainFeedOptions;
  readonly #logger: Logger;
  readonly #schedule: PollSchedule;
  readonly #anchors = new BlockAnchors();
  /** Endpoints that answered a batch with one error, and until when their fees are asked for alone. */
  readonly #batchRefusedUntil = new Map<Endpoint, number>();
  readonly #overlapBlocks: number;
  readonly #pool: EndpointPool;
  readonly #state: FeeHistoryState;
  readonly #head: ChainHead;
  readonly #droppedBlobFields: DroppedBlobFields;
  /** Headers believed from polls so far (the rhythm is learned from the first HEADERS_TO_LEARN). */
  #pollHeaders = 0;
  /** Blocks applied since the previous report, to go out in the next one. */
  #unreportedBlocks: FeedBlocks[] = [];
  /** When each endpoint's chain id was last checked (epoch ms). */
  readonly #chainIdCheckedAt = new Map<Endpoint, number>();
  #report: FeedReport;
  /** Epoch ms when the newest new data arrived (new or re-mined blocks): an answer that only repeats is not fresh. */
  #newDataAt: number | undefined;
  /** Epoch ms of this run's last successful sync. */
  #lastSyncAt: number | undefined;
  /** The newest block a believed header has shown (an endpoint's check, a poll's batch, a ws notification). */
  #newestHeadSeen: bigint | undefined;
  #noBaseFee = false;
  /** Every endpoint was tried and each is failing or serves another chain (cleared by the next successful sync). */
  #everyEndpointFailing = false;
  /** The newest failure, for the log line that says no endpoint answers. */
  #lastError: Error | undefined;
  #active: Endpoint | undefined;
  #subscription: { endpoint: Endpoint; live: boolean } | undefined;
  #started = false;
  #stopped = false;
  #cycleRunning = false;
  #cycleAgain = false;
  #pollTimer: NodeJS.Timeout | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  readonly #ownsLayer: boolean;
  #unsubscribeLayer: (() => void) | undefined;
  /** The chain's endpoints compared on a sample of the blocks confirmed (where it has two or more). */
  readonly #crossCheck: BlockCrossCheck;

  constructor(options: ChainFeedOptions) {
    if (!Number.isSafeInteger(options.chainId) || options.chainId < 1) throw new RangeError(`a chain id is a positive integer (got ${options.chainId})`);
    if (!Number.isInteger(options.windowBlocks) || options.windowBlocks < HISTORY_BLOCKS) {
      throw new RangeError(`the statistics window holds at least ${HISTORY_BLOCKS} blocks (got ${options.windowBlocks})`);
    }
    this.#options = options;
    this.#logger = options.logger;
    this.#droppedBlobFields = new DroppedBlobFields(options.chainId, options.logger);
    this.#schedule = new PollSchedule({
      assumedBlockTimeMs: options.blockTimeMs,
      ...(options.pollIntervalMs === undefined ? {} : { fixedIntervalMs: options.pollIntervalMs }),
    });
    this.#overlapBlocks = Math.max(1, options.overlapBlocks ?? DEFAULT_OVERLAP_BLOCKS);
    this.#ownsLayer = options.endpoints === undefined;
    const layer =
      options.endpoints ??
      new ChainEndpoints(options.chainId, options.rpcUrls, {
        timeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
        labels: options.rpcLabels,
      });
    this.#pool = new EndpointPool(layer);
    this.#crossCheck = new BlockCrossCheck(layer, { logger: options.logger, timeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS });
    this.#state = new FeeHistoryState({ windowBlocks: options.windowBlocks });
    this.#head = new ChainHead({ blockTimeMs: options.blockTimeMs, reorgDepthBlocks: options.reorgDepthBlocks ?? DEFAULT_REORG_DEPTH_BLOCKS });
    if (options.heldHead) this.#head.seed(options.heldHead.block, options.heldHead.timestamp * 1000);
    // The first request after a restart asks for the blocks after these that the endpoint's check shows (its header).
    if (options.heldBlocks) this.#state.seed(options.heldBlocks);
    this.#report = firstFeedReport(options.chainId, this.#pool.statuses(undefined));
  }

  get chainId(): number {
    return this.#options.chainId;
  }

  /** The interval of fixed polling: as given, else one block time (1 to 12 s) as learned or assumed. */
  get pollIntervalMs(): number {
    return this.#schedule.fixedIntervalMs;
  }

  /** The newest report: the one last handed to onReport, or the first (syncing, no data) before any. */
  get report(): FeedReport {
    return this.#report;
  }

  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    // Another reader set an endpoint aside (the backfill found it lying, a cross-check) or it asked every reader to wait:
    // its status goes out, its check is scheduled, and the feed leaves it if it was following the chain through it.
    this.#unsubscribeLayer = this.#pool.layer.onChange((_endpoint, by) => {
      if (this.#stopped || by === "feed") return;
      if (this.#active !== undefined && this.#active.state !== "ok" && this.#active.state !== "unknown") {
        this.#setActive(undefined);
        this.#kick();
      }
      this.#publish();
      this.#scheduleRetry();
    });
    this.#kick();
  }

  /** Clears the timers, aborts requests in flight and closes sockets. The newest report stays readable. */
  stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#pollTimer);
    clearTimeout(this.#retryTimer);
    this.#pollTimer = this.#retryTimer = undefined;
    this.#dropSubscription();
    this.#crossCheck.stop();
    this.#unsubscribeLayer?.();
    this.#pool.close();
    if (this.#ownsLayer) this.#pool.layer.close();
    return Promise.resolve();
  }

  /** Runs a fetch now, or right after the one under way. */
  #kick(): void {
    if (!this.#started || this.#stopped || this.#noBaseFee) return;
    if (this.#cycleRunning) {
      this.#cycleAgain = true;
      return;
    }
    clearTimeout(this.#pollTimer);
    this.#pollTimer = undefined;
    this.#cycleRunning = true;
    this.#cycle()
      .catch((error: unknown) => this.#logger.error("chain feed cycle failed", { chainId: this.chainId, error: String(error) }))
      .finally(() => {
        this.#cycleRunning = false;
        if (this.#stopped) return;
        if (this.#cycleAgain) {
          this.#cycleAgain = false;
          this.#kick();
        } else this.#scheduleNextPoll();
      });
  }

  #scheduleNextPoll(): void {
    clearTimeout(this.#pollTimer);
    this.#pollTimer = undefined;
    if (this.#stopped || this.#noBaseFee || !this.#active) return;
    // A ws endpoint pushes heads; polling it now and then only guards against a subscription that went quiet.
    const delayMs =
      this.#active.connection.transport === "http"
        ? Math.max(0, this.#schedule.next().at - Date.now())
        : Math.max(3 * this.#schedule.fixedIntervalMs, 3 * this.#options.blockTimeMs);
    this.#pollTimer = setTimeout(() => this.#kick(), delayMs);
  }

  /** Brings the data up to date through the first endpoint that answers, failing over down the list. */
  async #cycle(): Promise<void> {
    for (const endpoint of this.#pool.usable()) {
      if (this.#stopped || this.#noBaseFee) return;
      try {
        if (!endpoint.verified) {
          await this.#verify(endpoint);
          if (this.#stopped || this.#noBaseFee) return;
        }
        if (endpoint.connection.transport === "ws") await this.#subscribe(endpoint);
        await this.#sync(endpoint);
        if (this.#stopped) return;
        if (this.#pool.markServing(endpoint)) {
          this.#logger.info(`chain ${this.chainId}: RPC endpoint ${endpoint.redactedUrl} answers again`, { chainId: this.chainId, url: endpoint.redactedUrl });
        }
        this.#setActive(endpoint);
        this.#everyEndpointFailing = false;
        this.#publish();
        return;
      } catch (error) {
        if (this.#stopped) return;
        this.#fail(endpoint, error);
      }
    }
    this.#setActive(undefined);
    if (this.#pool.allDown() && !this.#everyEndpointFailing) {
      this.#everyEndpointFailing = true;
      this.#logEveryEndpointFailing();
    }
    this.#publish();
  }

  /** Said once each time the chain loses its last endpoint: what is served meanwhile, and what to check. */
  #logEveryEndpointFailing(): void {
    const blocksHeld = this.#state.blocksHeld;
    if (blocksHeld > 0) {
      this.#logger.warn(`chain ${this.chainId}: every RPC endpoint is failing; serving the ${blocksHeld} blocks held until one answers`, {
        chainId: this.chainId,
        blocksHeld,
      });
      return;
    }
    // One short line, as one of several chains may say it at once (offline, every chain does): the cause in a few
    // words. The whole error is in the failure's debug line and in /networks.
    const tried = this.#pool.endpoints.length;
    const cause = this.#lastError ? shortCause(this.#lastError) : "none";
    this.#logger.error(`chain ${this.chainId}: no RPC endpoint answers (${tried} tried; last: ${cause}); no data until one does`);
  }

  /** Checks the endpoint's chain id, and whether the chain has base fees at all. */
  async #verify(endpoint: Endpoint): Promise<void> {
    const { connection } = endpoint;
    await this.#checkChainId(endpoint);
    const sentAt = Date.now();
    const block = await connection.request("eth_getBlockByNumber", ["latest", false]);
    const latest = parseLatestBlock(block, connection.redactedUrl);
    await this.#believe(endpoint, this.#head.judgeHead(latest.number, Date.now(), this.#schedule.blockTimeMs));
    this.#sawHead(latest.number);
    this.#sawHeader(endpoint, headerAnchor(block, connection.redactedUrl), sentAt, Date.now());
    this.#pool.markVerified(endpoint);
    if (latest.baseFeePerGas === undefined && !this.#noBaseFee && !this.#stopped) {
      this.#noBaseFee = true;
      this.#pool.markServing(endpoint);
      this.#setActive(endpoint);
      this.#everyEndpointFailing = false;
      clearTimeout(this.#pollTimer);
      clearTimeout(this.#retryTimer);
      this.#dropSubscription();
      this.#logger.warn(`chain ${this.chainId} has no EIP-1559 base fee (block ${latest.number} carries no baseFeePerGas); not following its fees`, {
        chainId: this.chainId,
        url: connection.redactedUrl,
      });
      this.#publish();
    }
  }

  /** Throws WrongChainError when the endpoint now reports another chain id. */
  async #checkChainId(endpoint: Endpoint): Promise<void> {
    // The layer's one check (forced: the feed asks again on connecting, when an answer turns suspect, and now and then).
    // Another chain's endpoint is set aside by the pool (markWrongChain, through the layer), said once in #fail.
    await this.#pool.layer.checkChainId(this.#pool.layered(endpoint), "feed", { force: true, setAside: false });
    this.#chainIdCheckedAt.set(endpoint, Date.now());
  }

  /**
   * Throws SuspectEndpointError when the verdict on an answer of `endpoint` is that it does not fit the chain, after
   * checking the endpoint's chain id (another chain's blocks are the likelier story, and a WrongChainError says so).
   */
  async #believe(endpoint: Endpoint, verdict: HeadVerdict): Promise<void> {
    if (verdict.believed) return;
    await this.#checkChainId(endpoint);
    throw new SuspectEndpointError(endpoint.redactedUrl, verdict.reason, verdict.explanation);
  }

  /** Fetches what is new (and re-reads the overlap) from one endpoint into the fee-history state. */
  async #sync(endpoint: Endpoint): Promise<void> {
    const recheckMs = this.#options.chainIdRecheckMs ?? CHAIN_ID_RECHECK_MS;
    if (Date.now() - (this.#chainIdCheckedAt.get(endpoint) ?? 0) >= recheckMs) await this.#checkChainId(endpoint);
    if (this.#stopped) return;
    const now = Date.now();
    const request = nextFeeHistoryRequest({
      newestHeldBlock: this.#state.newestBlock,
      newestHeadSeen: this.#newestHeadSeen,
      windowBlocks: this.#options.windowBlocks,
      overlapBlocks: this.#overlapBlocks,
      blockTimeMs: this.#schedule.blockTimeMs,
      pollIntervalMs: this.#schedule.fixedIntervalMs,
      lastSyncAt: this.#lastSyncAt,
      now,
    });
    // Polls bring the newest header along when it is due (HEADER_EVERY_BLOCKS); the backfill goes alone (the endpoint's
    // check has just read the header), and so do the polls of a feed told its interval (fees alone: tests, a baseline).
    const timed =
      endpoint.connection.transport === "http" &&
      this.#state.newestBlock !== undefined &&
      this.#options.pollIntervalMs === undefined &&
      !((this.#batchRefusedUntil.get(endpoint) ?? 0) > now);
    const withHeader = timed && this.#headerDue();
    const answer = await fetchBaseFees(endpoint.connection, { ...request, withHeader }, this.#pool.feeHistoryLimit(endpoint));
    if (this.#stopped) return;
    if (answer.blobProblem !== undefined) this.#droppedBlobFields.note(endpoint.redactedUrl, answer.blobProblem);
    if (answer.batchRefused) this.#refusedBatch(endpoint, now);
    // Judged before anything of it is kept: a head the chain cannot have, or a rewrite deeper than it reorganises.
    const answerNewest = answer.oldestBlock + BigInt(answer.baseFeesWei.length - 1);
    const rhythmMs = this.#schedule.blockTimeMs;
    await this.#believe(endpoint, this.#head.judgeHead(answerNewest, Date.now(), rhythmMs));
    if (answer.header) await this.#believe(endpoint, this.#head.judgeHead(answer.header.block, Date.now(), rhythmMs));
    const rewritten = this.#state.oldestRewrite(answer);
    if (rewritten !== undefined) await this.#believe(endpoint, this.#head.judgeRewrite(rewritten));
    if (this.#stopped) return;
    if (endpoint.connection.transport === "http") {
      if (withHeader || !timed) this.#sawHeader(endpoint, answer.header, now, Date.now());
      else this.#schedule.record({ endpoint: endpoint.redactedUrl, sentAt: now, answeredAt: Date.now(), header: this.#expectedHeader(answerNewest) });
    }
    if (this.#state.contradicts(answer)) {
      await this.#checkChainId(endpoint);
      if (this.#stopped) return;
    }
    this.#lastSyncAt = now;
    const applied = this.#state.apply(answer);
    if (applied.blocks) this.#unreportedBlocks.push(applied.blocks);
    if (applied.changed) this.#newDataAt = Date.now();
    this.#head.confirm(answerNewest, Date.now());
    this.#crossCheck.offer(answerNewest);
  }

  /** Whether the next poll brings the newest header: while the rhythm is learned, then every HEADER_EVERY_BLOCKS blocks. */
  #headerDue(): boolean {
    const newest = this.#anchors.newest;
    const held = this.#state.newestBlock;
    return this.#pollHeaders < HEADERS_TO_LEARN || newest === undefined || held === undefined || held - newest.block >= BigInt(HEADER_EVERY_BLOCKS - 1);
  }

  /**
   * The newest block's header as the chain's rhythm has it, for timing the next poll of one that brought no header:
   * the newest header seen, plus the chain's spacing for each block since. Never an anchor of the history.
   */
  #expectedHeader(block: bigint): BlockAnchor | undefined {
    const newest = this.#anchors.newest;
    if (newest === undefined || block < newest.block) return undefined;
    return { block, timestamp: newest.timestamp + (Number(block - newest.block) * this.#schedule.blockTimeMs) / 1000 };
  }

  /**
   * A header the feed saw from `endpoint` (undefined when the answer carried none it could read), in an answer to a
   * request sent at `sentAt` that arrived at `answeredAt`: an anchor for the next report, and a poll for the schedule.
   */
  #sawHeader(endpoint: Endpoint, header: BlockAnchor | undefined, sentAt: number, answeredAt: number): void {
    if (header !== undefined) this.#sawHead(header.block);
    const believed = header !== undefined && this.#anchors.offer(header, answeredAt) !== "refused" ? header : undefined;
    if (believed !== undefined && endpoint.connection.transport === "http") this.#pollHeaders++;
    if (header !== undefined && believed === undefined) {
      this.#logger.debug(`chain ${this.chainId}: block ${header.block}'s timestamp ${header.timestamp} from ${endpoint.redactedUrl} is not believed`, {
        chainId: this.chainId,
        url: endpoint.redactedUrl,
      });
    }
    if (endpoint.connection.transport === "http") this.#schedule.record({ endpoint: endpoint.redactedUrl, sentAt, answeredAt, header: believed });
  }

  /** A believed header showed `block`: the next request asks for the blocks up to it. */
  #sawHead(block: bigint): void {
    if (this.#newestHeadSeen === undefined || block > this.#newestHeadSeen) this.#newestHeadSeen = block;
  }

  #refusedBatch(endpoint: Endpoint, now: number): void {
    if (!this.#batchRefusedUntil.has(endpoint)) {
      this.#logger.info(
        `chain ${this.chainId}: RPC endpoint ${endpoint.redactedUrl} answers no JSON-RPC batches; polling it on a fixed interval, without block timestamps`,
        { chainId: this.chainId, url: endpoint.redactedUrl },
      );
    }
    this.#batchRefusedUntil.set(endpoint, now + BATCH_REFUSAL_MEMORY_MS);
  }

  #fail(endpoint: Endpoint, caught: unknown): void {
    const error = caught instanceof Error ? caught : new Error(String(caught));
    const now = Date.now();
    const before = endpoint.state;
    this.#lastError = error;
    if (error instanceof WrongChainError) {
      this.#pool.markWrongChain(endpoint, error, error.reportedChainId, now);
      if (before !== "wrong-chain")
        this.#logger.error(error.message, { chainId: this.chainId, url: endpoint.redactedUrl, reportedChainId: error.reportedChainId });
    } else if (error instanceof SuspectEndpointError) {
      this.#pool.markSuspect(endpoint, error, now);
      // Said once when the endpoint turns suspect; its checks while set aside say nothing more.
      if (before !== "suspect")
        this.#logger.warn(`chain ${this.chainId}: ${error.message}`, { chainId: this.chainId, url: endpoint.redactedUrl, reason: error.reason });
    } else {
      this.#pool.markFailing(endpoint, error, now);
      // A failure of an endpoint that was answering is a warning; its failed background checks are only debug, and so
      // is every failure before the chain has data: the chain's one line, once all have failed, says it with the cause.
      const level = before === "failing" || this.#state.blocksHeld === 0 ? "debug" : "warn";
      this.#logger[level](`chain ${this.chainId}: RPC endpoint ${endpoint.redactedUrl} failed; retrying it in ${endpoint.retryAt! - now} ms`, {
        chainId: this.chainId,
        url: endpoint.redactedUrl,
        error: error.message,
      });
    }
    if (this.#active === endpoint) this.#setActive(undefined);
    this.#publish();
    this.#scheduleRetry();
  }

  #setActive(endpoint: Endpoint | undefined): void {
    if (this.#active === endpoint) return;
    if (this.#subscription && this.#subscription.endpoint !== endpoint) this.#dropSubscription();
    const previous = this.#active;
    this.#active = endpoint;
    this.#pool.layer.markActive(endpoint === undefined ? undefined : this.#pool.layered(endpoint));
    // Leaving a ws endpoint that still works (a preferred one came back): close its socket and subscription.
    if (previous && previous.state === "ok" && previous.connection.transport === "ws") this.#pool.disconnect(previous);
  }

  async #subscribe(endpoint: Endpoint): Promise<void> {
    if (this.#subscription?.endpoint === endpoint && this.#subscription.live) return;
    this.#dropSubscription();
    const subscription = { endpoint, live: true };
    this.#subscription = subscription;
    try {
      await endpoint.connection.subscribeNewHeads(
        (header) => {
          if (!subscription.live) return;
          const now = Date.now();
          const anchor = headerAnchor(header, endpoint.redactedUrl);
          const verdict = anchor === undefined ? undefined : this.#head.judgeHead(anchor.block, now, this.#schedule.blockTimeMs);
          if (verdict !== undefined && !verdict.believed) {
            // Its chain id is checked with its head again when its wait is over (#verify).
            subscription.live = false;
            if (this.#subscription === subscription) this.#subscription = undefined;
            this.#fail(endpoint, new SuspectEndpointError(endpoint.redactedUrl, verdict.reason, verdict.explanation));
            this.#kick();
            return;
          }
          this.#sawHeader(endpoint, anchor, now, now);
          this.#kick();
        },
        (error) => {
          if (!subscription.live || this.#stopped) return;
          subscription.live = false;
          if (this.#subscription === subscription) this.#subscription = undefined;
          this.#fail(endpoint, error);
          this.#kick();
        },
      );
    } catch (error) {
      subscription.live = false;
      if (this.#subscription === subscription) this.#subscription = undefined;
      throw error;
    }
  }

  #dropSubscription(): void {
    if (!this.#subscription) return;
    this.#subscription.live = false;
    this.#subscription = undefined;
  }

  /** Checks failing endpoints again once their wait is over, in the background; one that passes is tried at once. */
  #scheduleRetry(): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (this.#stopped || this.#noBaseFee) return;
    const at = this.#pool.nextRetryAt();
    if (at === undefined) return;
    this.#retryTimer = setTimeout(() => this.#retryDue(), Math.max(0, at - Date.now()));
  }

  #retryDue(): void {
    this.#retryTimer = undefined;
    for (const endpoint of this.#pool.takeDue(Date.now())) {
      this.#verify(endpoint).then(
        () => {
          if (this.#stopped || this.#noBaseFee) return;
          // Usable again, but its backoff keeps growing until a sync through it succeeds (markServing).
          this.#pool.markAnswering(endpoint);
          this.#logger.debug(`chain ${this.chainId}: RPC endpoint ${endpoint.redactedUrl} passes its checks again; trying it`, {
            chainId: this.chainId,
            url: endpoint.redactedUrl,
          });
          this.#publish();
          this.#kick();
        },
        (error: unknown) => {
          if (this.#stopped) return;
          this.#fail(endpoint, error);
        },
      );
    }
    this.#scheduleRetry();
  }

  #phase(): FeedPhase {
    if (this.#noBaseFee) return "no-base-fee";
    const hasData = this.#state.newestBlock !== undefined;
    if (this.#everyEndpointFailing) return hasData ? "degraded" : "unreachable";
    return hasData ? "ok" : "syncing";
  }

  /** Hands the listener a new report when it has blocks to tell, anything it carries changed, or a header was seen. */
  #publish(): void {
    if (this.#stopped) return;
    const next = nextFeedReport(this.#report, {
      blocks: this.#unreportedBlocks,
      newestBlock: this.#state.newestBlock,
      nextBaseFeeWei: this.#state.nextBaseFeeWei,
      nextBlobBaseFeeWei: this.#state.nextBlobBaseFeeWei,
      recentTips: this.#state.recentTips,
      newDataAt: this.#newDataAt,
      phase: this.#phase(),
      endpoints: this.#pool.statuses(this.#active),
      anchors: this.#anchors.takeUnreported(),
      callCounts: this.#pool.callCounts(),
      disputes: this.#pool.layer.disputes,
    });
    this.#unreportedBlocks = [];
    if (!next) return;
    this.#report = next;
    try {
      this.#options.onReport?.(this.#report);
    } catch (error) {
      this.#logger.error("the chain feed's onReport listener failed", { chainId: this.chainId, error: String(error) });
    }
  }
}
/** A failure in a few words, for a line of the log: what went wrong and where, without what to do about it. */
function shortCause(error: Error): string {
  if (error instanceof SuspectEndpointError) return `${error.url} is set aside`;
  if (error instanceof WrongChainError) return `${error.url} serves chain ${error.reportedChainId}`;
  if (error instanceof MalformedRpcResponseError) return `${error.url} answered garbage`;
  if (error instanceof RpcEndpointError) {
    // "getaddrinfo ENOTFOUND <host>" and "connect ECONNREFUSED <host>:<port>" name the endpoint already.
    return error.reason.includes(hostOf(error.url)) ? error.reason : `${error.url}: ${error.reason}`;
  }
  return error.message;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return url;
  }
}
