import { BlockWindow } from "../core/fees/blockWindow.ts";
import { HISTORY_BLOCKS } from "../core/fees/feeSnapshot.ts";
import { TipWindow } from "../core/fees/recentTips.ts";
import { RECENT_BLOCKS } from "../core/fees/suggestedGasFees.ts";
import type { Logger } from "../log/logger.ts";
import type { EndpointStatus } from "../wire/networkStatus.ts";
import { DEFAULT_BACKOFF, type BackoffOptions, type Endpoint, EndpointPool } from "./endpointPool.ts";
import { WrongChainError } from "./errors.ts";
import { fetchBaseFees } from "./fetchBaseFees.ts";
import { parseChainId, parseLatestBlock, type FeeHistoryAnswer } from "./parseRpcAnswers.ts";

export interface ChainFeedOptions {
  chainId: number;
  /** http(s) or ws(s); in order of preference, failing over between them. */
  rpcUrls: readonly string[];
  /** The polling interval is derived from it (clamped to 1..12 s) unless pollIntervalMs is given. */
  blockTimeMs: number;
  /** Blocks to hold (>= 500): the statistics window; the history is the newest 500 of them. */
  windowBlocks: number;
  logger: Logger;
  /** Explicit polling interval (tests, demo). */
  pollIntervalMs?: number;
  /** After the window or nextBaseFeeWei changed (not when a poll found nothing new). */
  onData?: () => void;
  /** After endpoint health, degraded or noBaseFee changed. */
  onHealth?: () => void;
  /** Per request; default 10 s. */
  requestTimeoutMs?: number;
  /** Wait before retrying a failing endpoint: 1 s doubling to 60 s by default. */
  backoff?: Partial<BackoffOptions>;
  /** Recent blocks read again on each poll so that re-mined blocks are corrected; default 8. */
  overlapBlocks?: number;
}

export const MIN_POLL_INTERVAL_MS = 1000;
export const MAX_POLL_INTERVAL_MS = 12_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_OVERLAP_BLOCKS = 8;
/** New blocks one poll reaches at least, beyond the overlap. */
const MIN_POLL_REACH_BLOCKS = 56;

/** Polls as often as blocks come, but not more than once a second nor less than every 12 s. */
export function pollIntervalFor(blockTimeMs: number): number {
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(MIN_POLL_INTERVAL_MS, Math.round(blockTimeMs)));
}

/**
 * Follows one chain through its RPC endpoints and holds the base fees of its newest `windowBlocks` blocks.
 *
 * Each endpoint's `eth_chainId` is checked when it connects (and again when it recovers); one reporting another
 * chain is never used. The window is backfilled with `eth_feeHistory` (one request when the endpoint allows it,
 * split otherwise), then followed with one `eth_feeHistory(n, "latest")` per poll (http) or per `newHeads`
 * notification (ws) that returns the new blocks and re-reads the last few, so a re-mined block's base fee
 * replaces the old one. On errors it fails over down the list, backs off from failing endpoints, keeps the data
 * it holds, and catches up with no gap once an endpoint answers again.
 */
export class ChainFeed {
  readonly window: BlockWindow;
  /** The tips of the newest blocks, read in the same eth_feeHistory calls (those ending at the head). */
  readonly tips = new TipWindow(RECENT_BLOCKS);
  readonly #options: ChainFeedOptions;
  readonly #logger: Logger;
  readonly #pollIntervalMs: number;
  readonly #overlapBlocks: number;
  readonly #pool: EndpointPool;
  #nextBaseFeeWei: bigint | undefined;
  #confirmedAt: number | undefined;
  #lastSuccessAt: number | undefined;
  #noBaseFee = false;
  #degraded = false;
  #active: Endpoint | undefined;
  #subscription: { endpoint: Endpoint; live: boolean } | undefined;
  #started = false;
  #stopped = false;
  #cycleRunning = false;
  #cycleAgain = false;
  #pollTimer: NodeJS.Timeout | undefined;
  #retryTimer: NodeJS.Timeout | undefined;

  constructor(options: ChainFeedOptions) {
    if (!Number.isSafeInteger(options.chainId) || options.chainId < 1) throw new RangeError(`a chain id is a positive integer (got ${options.chainId})`);
    if (!Number.isInteger(options.windowBlocks) || options.windowBlocks < HISTORY_BLOCKS) {
      throw new RangeError(`the statistics window holds at least ${HISTORY_BLOCKS} blocks (got ${options.windowBlocks})`);
    }
    this.#options = options;
    this.#logger = options.logger;
    this.#pollIntervalMs = options.pollIntervalMs ?? pollIntervalFor(options.blockTimeMs);
    if (!(this.#pollIntervalMs > 0)) throw new RangeError(`the polling interval must be positive (got ${this.#pollIntervalMs} ms)`);
    this.#overlapBlocks = Math.max(1, options.overlapBlocks ?? DEFAULT_OVERLAP_BLOCKS);
    this.#pool = new EndpointPool(options.rpcUrls, {
      timeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
    });
    this.window = new BlockWindow(options.windowBlocks);
  }

  get chainId(): number {
    return this.#options.chainId;
  }

  get pollIntervalMs(): number {
    return this.#pollIntervalMs;
  }

  /** The next block's base fee as the RPC reported it (the extra last element of eth_feeHistory). */
  get nextBaseFeeWei(): bigint | undefined {
    return this.#nextBaseFeeWei;
  }

  /** Epoch ms of the last successful poll or head, even when it brought nothing new. */
  get confirmedAt(): number | undefined {
    return this.#confirmedAt;
  }

  /** The chain has no EIP-1559 base fee (its latest block has no baseFeePerGas); it is not polled. */
  get noBaseFee(): boolean {
    return this.#noBaseFee;
  }

  /** Every endpoint was tried and each is failing or serves another chain. */
  get degraded(): boolean {
    return this.#degraded;
  }

  endpoints(): EndpointStatus[] {
    return this.#pool.statuses(this.#active);
  }

  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    this.#kick();
  }

  /** Clears the timers, aborts requests in flight and closes sockets. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#pollTimer);
    clearTimeout(this.#retryTimer);
    this.#pollTimer = this.#retryTimer = undefined;
    this.#dropSubscription();
    this.#pool.close();
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
    const delayMs = this.#active.connection.transport === "http" ? this.#pollIntervalMs : Math.max(3 * this.#pollIntervalMs, 3 * this.#options.blockTimeMs);
    this.#pollTimer = setTimeout(() => this.#kick(), delayMs);
  }

  /** Brings the window up to date through the first endpoint that answers, failing over down the list. */
  async #cycle(): Promise<void> {
    for (const endpoint of this.#pool.usable()) {
      if (this.#stopped || this.#noBaseFee) return;
      try {
        if (!endpoint.verified) {
          await this.#verify(endpoint);
          if (this.#stopped || this.#noBaseFee) return;
        }
        if (endpoint.connection.transport === "ws") await this.#subscribe(endpoint);
        const changed = await this.#sync(endpoint);
        if (this.#stopped) return;
        const wasActive = this.#active === endpoint && endpoint.state === "ok" && !this.#degraded;
        this.#pool.markOk(endpoint);
        this.#setActive(endpoint);
        this.#degraded = false;
        this.#confirmedAt = Date.now();
        if (!wasActive) this.#health();
        if (changed) this.#data();
        return;
      } catch (error) {
        if (this.#stopped) return;
        this.#fail(endpoint, error);
      }
    }
    this.#setActive(undefined);
    if (this.#pool.allDown() && !this.#degraded) {
      this.#degraded = true;
      this.#logger.warn(`chain ${this.chainId}: every RPC endpoint is failing; serving the data held until one answers`, {
        chainId: this.chainId,
        blocksHeld: this.window.size,
      });
      this.#health();
    }
  }

  /** Checks the endpoint's chain id, and whether the chain has base fees at all. */
  async #verify(endpoint: Endpoint): Promise<void> {
    const { connection } = endpoint;
    await this.#checkChainId(endpoint);
    const latest = parseLatestBlock(await connection.request("eth_getBlockByNumber", ["latest", false]), connection.redactedUrl);
    endpoint.verified = true;
    if (latest.baseFeePerGas === undefined && !this.#noBaseFee && !this.#stopped) {
      this.#noBaseFee = true;
      this.#pool.markOk(endpoint);
      this.#setActive(endpoint);
      this.#degraded = false;
      clearTimeout(this.#pollTimer);
      clearTimeout(this.#retryTimer);
      this.#dropSubscription();
      this.#logger.warn(`chain ${this.chainId} has no EIP-1559 base fee (block ${latest.number} carries no baseFeePerGas); not following its fees`, {
        chainId: this.chainId,
        url: connection.redactedUrl,
      });
      this.#health();
    }
  }

  /** Throws WrongChainError when the endpoint now reports another chain id. */
  async #checkChainId(endpoint: Endpoint): Promise<void> {
    const { connection } = endpoint;
    const reported = parseChainId(await connection.request("eth_chainId", []), connection.redactedUrl);
    endpoint.reportedChainId = reported;
    if (reported !== this.chainId) throw new WrongChainError(connection.redactedUrl, this.chainId, reported);
  }

  /** Fetches what is new (and re-reads the overlap) from one endpoint; true when the window or next fee changed. */
  async #sync(endpoint: Endpoint): Promise<boolean> {
    const now = Date.now();
    const { windowBlocks, blockTimeMs } = this.#options;
    const newest = this.window.newestBlock;
    let request: { fromBlock?: bigint; maxBlocks: number; firstRequestBlocks: number };
    if (newest === undefined) {
      request = { maxBlocks: windowBlocks, firstRequestBlocks: windowBlocks };
    } else {
      const fromBlock = newest + 1n - BigInt(this.#overlapBlocks);
      const sinceMs = Math.max(this.#pollIntervalMs, now - (this.#lastSuccessAt ?? now));
      // Room for twice the blocks expected since the last success (and a burst of dozens anyway: a few more
      // blocks cost nothing in one answer), so that catching up after a slow poll is still one request.
      const expectedBlocks = Math.ceil(sinceMs / Math.max(1, blockTimeMs));
      request = {
        fromBlock: fromBlock < 0n ? 0n : fromBlock,
        maxBlocks: windowBlocks,
        firstRequestBlocks: Math.min(windowBlocks, this.#overlapBlocks + Math.max(MIN_POLL_REACH_BLOCKS, 2 * expectedBlocks + 2)),
      };
    }
    const answer = await fetchBaseFees(endpoint.connection, request, endpoint.limit);
    if (this.#stopped) return false;
    // Blocks held that change, or a head behind ours, are a reorg, a lagging node... or an endpoint that now
    // serves another chain (a misrouted URL): its chain id is checked again before any of it is used.
    if (rewritesHeld(this.window, answer)) {
      await this.#checkChainId(endpoint);
      if (this.#stopped) return false;
    }
    this.#lastSuccessAt = now;
    return this.#apply(answer);
  }

  #apply(answer: FeeHistoryAnswer): boolean {
    const answerNewest = answer.oldestBlock + BigInt(answer.baseFeesWei.length - 1);
    const heldNewest = this.window.newestBlock;
    let changed = differs(this.window, answer.oldestBlock, answer.baseFeesWei);
    this.window.write(answer.oldestBlock, answer.baseFeesWei);
    if (answer.tips && this.tips.write(answer.tips)) changed = true;
    // An endpoint behind the blocks held says nothing about the block after them.
    if ((heldNewest === undefined || answerNewest >= heldNewest) && answer.nextBaseFeeWei !== this.#nextBaseFeeWei) {
      this.#nextBaseFeeWei = answer.nextBaseFeeWei;
      changed = true;
    }
    return changed;
  }

  #fail(endpoint: Endpoint, caught: unknown): void {
    const error = caught instanceof Error ? caught : new Error(String(caught));
    const now = Date.now();
    const before = endpoint.state;
    if (error instanceof WrongChainError) {
      this.#pool.markWrongChain(endpoint, error, error.reportedChainId, now);
      if (before !== "wrong-chain")
        this.#logger.error(error.message, { chainId: this.chainId, url: endpoint.redactedUrl, reportedChainId: error.reportedChainId });
    } else {
      this.#pool.markFailing(endpoint, error, now);
      const log = before === "failing" ? this.#logger.debug : this.#logger.warn;
      log(`chain ${this.chainId}: RPC endpoint ${endpoint.redactedUrl} failed; retrying it in ${endpoint.retryAt! - now} ms`, {
        chainId: this.chainId,
        url: endpoint.redactedUrl,
        error: error.message,
      });
    }
    if (this.#active === endpoint) this.#setActive(undefined);
    this.#health();
    this.#scheduleRetry();
  }

  #setActive(endpoint: Endpoint | undefined): void {
    if (this.#active === endpoint) return;
    if (this.#subscription && this.#subscription.endpoint !== endpoint) this.#dropSubscription();
    const previous = this.#active;
    this.#active = endpoint;
    // Leaving a ws endpoint that still works (a preferred one came back): close its socket and subscription.
    if (previous && previous.state === "ok" && previous.connection.transport === "ws") previous.connection.close();
  }

  async #subscribe(endpoint: Endpoint): Promise<void> {
    if (this.#subscription?.endpoint === endpoint && this.#subscription.live) return;
    this.#dropSubscription();
    const subscription = { endpoint, live: true };
    this.#subscription = subscription;
    try {
      await endpoint.connection.subscribeNewHeads(
        () => {
          if (subscription.live) this.#kick();
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

  /** Checks failing endpoints again once their wait is over, in the background; one that recovers is used at once. */
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
    for (const endpoint of this.#pool.due(Date.now())) {
      endpoint.probing = true;
      this.#verify(endpoint).then(
        () => {
          endpoint.probing = false;
          if (this.#stopped || this.#noBaseFee) return;
          this.#pool.markOk(endpoint);
          this.#logger.info(`chain ${this.chainId}: RPC endpoint ${endpoint.redactedUrl} answers again`, { chainId: this.chainId, url: endpoint.redactedUrl });
          this.#health();
          this.#kick();
        },
        (error: unknown) => {
          endpoint.probing = false;
          if (this.#stopped) return;
          this.#fail(endpoint, error);
        },
      );
    }
    this.#scheduleRetry();
  }

  #data(): void {
    this.#call(this.#options.onData, "onData");
  }

  #health(): void {
    this.#call(this.#options.onHealth, "onHealth");
  }

  #call(listener: (() => void) | undefined, name: string): void {
    try {
      listener?.();
    } catch (error) {
      this.#logger.error(`the chain feed's ${name} listener failed`, { chainId: this.chainId, error: String(error) });
    }
  }
}

/** Whether an answer ends before the newest block held, or gives another fee for a block held. */
function rewritesHeld(window: BlockWindow, answer: FeeHistoryAnswer): boolean {
  const oldest = window.oldestBlock;
  const newest = window.newestBlock;
  if (oldest === undefined || newest === undefined) return false;
  if (answer.oldestBlock + BigInt(answer.baseFeesWei.length) - 1n < newest) return true;
  const held = window.baseFeesWei;
  for (let i = 0; i < answer.baseFeesWei.length; i++) {
    const block = answer.oldestBlock + BigInt(i);
    if (block < oldest) continue;
    if (block > newest) break;
    if (held[Number(block - oldest)] !== answer.baseFeesWei[i]) return true;
  }
  return false;
}

/** Whether writing these blocks would change the window (a new block, or another fee for a block held). */
function differs(window: BlockWindow, firstBlock: bigint, baseFeesWei: readonly bigint[]): boolean {
  const oldest = window.oldestBlock;
  const newest = window.newestBlock;
  if (oldest === undefined || newest === undefined) return baseFeesWei.length > 0;
  const held = window.baseFeesWei;
  for (let i = 0; i < baseFeesWei.length; i++) {
    const block = firstBlock + BigInt(i);
    if (block < oldest) continue;
    if (block > newest) return true;
    if (held[Number(block - oldest)] !== baseFeesWei[i]) return true;
  }
  return false;
}
