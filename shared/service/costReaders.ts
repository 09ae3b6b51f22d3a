// Reads, at most once a minute and never while a request waits, what costs in money need besides the fees: each price
// feed's newest round and each rollup's L1 fees, through the chains' own endpoints; hands each chain's ChainMoney on.
import { setTimeout as delay } from "node:timers/promises";
import { formatUnits } from "viem";
import { pricePlanOf, type PricePlan, type PriceFeedSpec } from "../config/priceFeeds.ts";
import type { OpStackL1Inputs } from "../core/costs/l1FeeBound.ts";
import { suspectPrice } from "../core/costs/priceBounds.ts";
import { allowedRoundAgeS, judgeRound, sameRound, type FeedRound } from "../core/costs/priceRound.ts";
import type { BlobSchedule } from "../core/fees/blobFeeRule.ts";
import type { Logger } from "../log/logger.ts";
import { contractClientOf, createContractClient, type ContractClient } from "../rpc/contracts/contractClient.ts";
import type { ChainEndpoints } from "../rpc/endpoints/chainEndpoints.ts";
import { readBlobSchedule } from "../rpc/contracts/blobScheduleRead.ts";
import { errorLine } from "../rpc/connection/errorLine.ts";
import { crossCheckL1Fee } from "../rpc/endpoints/l1FeeCrossCheck.ts";
import { crossCheckRound } from "../rpc/endpoints/roundCrossCheck.ts";
import { L1FeeRefusedError, readL1Fees } from "../rpc/contracts/l1FeeReads.ts";
import { readOperatorFees } from "../rpc/contracts/operatorFeeReads.ts";
import { descriptionMatches, readFeedSetup, readLatestRound, readPastRounds, readRoundElsewhere, type FeedSetup } from "../rpc/contracts/priceFeedReads.ts";
import type { ChainMoney } from "./chainMoney.ts";
import { historyHorizonOf, type ChainPlan } from "./chainPlan.ts";
import { walkPastRounds } from "./pastPriceRounds.ts";
import { priceSourceOf, PricePoints, type PricePointLog } from "./pricePoints.ts";

/** Read each feed and oracle this often at most (CONTRACT.md: at most once a minute). */
export const COST_READ_INTERVAL_MS = 60_000;
/** A chain's blob schedule changes only at a fork: eth_config is asked at start, then this often at most. */
export const BLOB_SCHEDULE_READ_INTERVAL_MS = 3_600_000;
/**
 * An OP-stack oracle's inputs (L1 base fee, blob base fee, scalars) judge its fees this long after they were read; then,
 * or when a fee is more than they explain, they are read again (four calls) with the fees.
 */
export const L1_INPUTS_MAX_AGE_MS = 600_000;
/** Walks back through a feed's past rounds per start: the first, and retries after an endpoint failed one. */
const PAST_WALK_TRIES = 5;
/** How often the timer looks for reads that are due (a chain that just answered for the first time is read then). */
const TICK_MS = 1000;

const feedKey = (spec: PriceFeedSpec) => `feed ${spec.feedChainId} ${spec.address.toLowerCase()}`;

export interface CostReadersOptions {
  readonly plans: readonly ChainPlan[];
  readonly currency: string;
  /** The sizes (bytes) of the actions' transactions, whose L1 fees are read. */
  readonly txSizes: readonly number[];
  /** The actions' gas, whose operator fees are read on OP-stack chains (none read without it). */
  readonly gasAmounts?: readonly bigint[];
  readonly logger: Logger;
  /** Called with a chain's new money part after each read that changed it. */
  readonly onMoney: (chainId: number, money: ChainMoney) => void;
  /** Where price points are kept across restarts; in memory only without it. */
  readonly pricePointLog?: PricePointLog;
  /** Tests shorten it; COST_READ_INTERVAL_MS otherwise. */
  readonly intervalMs?: number;
  readonly requestTimeoutMs?: number;
  /** Epoch ms; tests may pin it. */
  readonly now?: () => number;
  /**
   * Whether a chain's feed has data (an endpoint answered): a chain none of whose endpoints answers is not read through
   * (its problem is said as such, and logged at debug level only: the feed already says the chain is unreachable).
   */
  readonly chainAnswers?: (chainId: number) => boolean;
  /**
   * The chain's endpoint layer, shared with its feed and backfill: reads go only through endpoints it trusts. Without
   * it (tools, tests), each chain read through gets a layer of its own.
   */
  readonly endpointsOf?: (chainId: number) => ChainEndpoints | undefined;
}

interface FeedReader {
  readonly spec: PriceFeedSpec;
  readonly chainIds: number[];
  setup: FeedSetup | undefined;
  /**
   * Whether the rounds before the first one read have been read back (once per start, after that first good read; again
   * at a later good read when an endpoint failed the walk, PAST_WALK_TRIES times at most).
   */
  pastRead: "not yet" | "started";
  pastWalksStarted: number;
  /**
   * The last price used and the endpoint (its URL) it was read from: a new round is judged against it (priceBounds.ts),
   * and it is held while a suspect round waits for another endpoint's confirmation.
   */
  lastGood: { readonly price: NonNullable<ChainMoney["price"]>; readonly endpoint: string } | undefined;
  /**
   * The newest round compared across the chain's endpoints (rpc/endpoints/roundCrossCheck.ts), as it was read: the
   * same round told otherwise later (another answer or date) is compared again, as a new round would be.
   */
  checkedRound?: FeedRound;
}

/**
 * One reader per distinct feed (ETH-gas chains share Ethereum's ETH / USD: one read serves them all) and one per
 * rollup; each read runs on a timer, and a chain's money changes only when a read says something new.
 */
export class CostReaders {
  readonly #options: CostReadersOptions;
  readonly #intervalMs: number;
  readonly #now: () => number;
  readonly #clients = new Map<number, ContractClient>();
  /** Stops hearing of each chain's endpoint layer (whose liars' price points are forgotten). */
  readonly #unsubscribes: (() => void)[] = [];
  readonly #feeds: FeedReader[] = [];
  readonly #money = new Map<number, ChainMoney>();
  readonly #points = new Map<number, PricePoints>();
  readonly #loggedProblems = new Map<string, string>();
  /** Each OP-stack chain's oracle inputs its fees were last judged by, and when they were read. */
  readonly #l1Inputs = new Map<number, { readonly inputs: OpStackL1Inputs; readonly readAtMs: number }>();
  /** When each feed (feedKey) and each chain's L1 oracle (`l1 <chainId>`) was last read. */
  readonly #lastReadAtMs = new Map<string, number>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  #running: Promise<void> | undefined;
  /** The walks back through feeds' past rounds under way; stop() ends them between batches and waits for them. */
  readonly #pastWalks = new Set<Promise<void>>();
  readonly #stopping = new AbortController();

  constructor(options: CostReadersOptions) {
    this.#options = options;
    this.#intervalMs = options.intervalMs ?? COST_READ_INTERVAL_MS;
    this.#now = options.now ?? Date.now;
    const followed = options.plans.map((plan) => plan.chainId);
    const nowS = Math.floor(this.#now() / 1000);
    for (const plan of options.plans) {
      const pricePlan: PricePlan = pricePlanOf(plan.chainId, plan.name, plan.priceFeed, followed, options.currency);
      const l1FeeKind = plan.l1FeeKind ?? "none";
      this.#money.set(plan.chainId, {
        currency: options.currency,
        price: undefined,
        priceProblem: pricePlan.kind === "none" ? pricePlan.problem : "the price has not been read yet",
        l1FeeKind,
        l1Fees: undefined,
        l1FeeProblem: l1FeeKind === "none" ? null : "the L1 fee has not been read yet",
      });
      this.#points.set(plan.chainId, new PricePoints(plan.chainId, historyHorizonOf(plan).seconds, nowS, options.pricePointLog));
      if (pricePlan.kind === "none") continue;
      const { feed } = pricePlan;
      const shared = this.#feeds.find(
        (reader) => reader.spec.feedChainId === feed.feedChainId && reader.spec.address.toLowerCase() === feed.address.toLowerCase(),
      );
      if (shared === undefined) {
        this.#feeds.push({ spec: feed, chainIds: [plan.chainId], setup: undefined, pastRead: "not yet", pastWalksStarted: 0, lastGood: undefined });
      } else shared.chainIds.push(plan.chainId);
    }
  }

  /** The money part each chain starts with (no price read yet, or why there will be none). */
  initial(chainId: number): ChainMoney | undefined {
    return this.#money.get(chainId);
  }

  /** The chain's price points of [fromS, toS] (GET /networks/{chainId}/priceHistory). */
  pricePoints(chainId: number, fromS: number, toS: number): readonly { time: number; value: string }[] {
    return this.#points.get(chainId)?.range(fromS, toS) ?? [];
  }

  /** JSON-RPC calls these reads have sent, per chain read through (the benchmarks' call budget). */
  callCounts(): ReadonlyMap<number, number> {
    return new Map([...this.#clients].map(([chainId, client]) => [chainId, client.callCount]));
  }

  start(): void {
    for (const [chainId, money] of this.#money) this.#options.onMoney(chainId, money);
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopping.abort();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    await this.#running;
    await Promise.all(this.#pastWalks);
    for (const unsubscribe of this.#unsubscribes) unsubscribe();
    for (const client of this.#clients.values()) client.close();
  }

  /** One round of every read now (tests and the bench call it; the timer reads each one when it is due). */
  async readAll(): Promise<void> {
    await this.#read(() => true);
  }

  /**
   * The reads due at `nowMs`: each feed and oracle once an interval after its last read, and at once (at the next
   * tick) a chain that had no answering endpoint at its last turn, so that a price shows as soon as its chain answers.
   */
  async #read(due: (key: string) => boolean): Promise<void> {
    const nowS = Math.floor(this.#now() / 1000);
    await Promise.all([
      ...this.#feeds.filter((feed) => due(feedKey(feed.spec))).map((feed) => this.#readFeed(feed, nowS)),
      ...this.#options.plans.filter((plan) => due(`l1 ${plan.chainId}`)).map((plan) => this.#readL1(plan)),
      ...this.#options.plans.filter((plan) => due(`config ${plan.chainId}`)).map((plan) => this.#readBlobSchedule(plan)),
    ]);
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      const nowMs = this.#now();
      const isDue = (key: string) => {
        const last = this.#lastReadAtMs.get(key);
        const intervalMs = key.startsWith("config") ? Math.max(this.#intervalMs, BLOB_SCHEDULE_READ_INTERVAL_MS) : this.#intervalMs;
        return last === undefined || nowMs - last >= intervalMs;
      };
      this.#running = this.#read(isDue)
        .catch((error: unknown) => this.#options.logger.error("reading prices and L1 fees failed", { error: String(error) }))
        .finally(() => this.#schedule(Math.min(this.#intervalMs, TICK_MS)));
    }, delayMs);
  }

  #client(chainId: number): ContractClient | undefined {
    const existing = this.#clients.get(chainId);
    if (existing !== undefined) return existing;
    const plan = this.#options.plans.find((candidate) => candidate.chainId === chainId);
    if (plan === undefined) return undefined;
    const timeoutMs = this.#options.requestTimeoutMs ?? plan.requestTimeoutMs ?? 10_000;
    const layer = this.#options.endpointsOf?.(chainId);
    const client = layer === undefined ? createContractClient(chainId, plan.rpcUrls, timeoutMs) : contractClientOf(layer, timeoutMs);
    this.#clients.set(chainId, client);
    // An endpoint found lying (by the feed, the backfill or a cross-check): the price points it supplied are removed and
    // read again from an honest one, never kept because their times are held.
    const unsubscribe = layer?.onChange((endpoint) => {
      if (!this.#stopped && endpoint?.setAsideFor === "disagrees") this.forgetFrom(endpoint.redactedUrl);
    });
    if (unsubscribe !== undefined) this.#unsubscribes.push(unsubscribe);
    return client;
  }

  async #readFeed(reader: FeedReader, nowS: number): Promise<void> {
    const { spec } = reader;
    if (!this.#answers(spec.feedChainId)) {
      this.#unreadable(reader.chainIds, "price", `no price yet: chain ${spec.feedChainId}, which the price feed is read on, has no answering RPC endpoint`);
      return;
    }
    this.#lastReadAtMs.set(feedKey(spec), this.#now());
    const client = this.#client(spec.feedChainId)!;
    let outcome: { price: ChainMoney["price"]; problem: string | null };
    try {
      // Checked before first use (and again until it passes): a feed that names another pair is never read for this one.
      if (reader.setup === undefined) {
        const setup = await readFeedSetup(client, spec.address);
        const expected = spec.description;
        const fits =
          expected === "any" ||
          (expected === "pair"
            ? descriptionMatches(setup.description, [spec.token, ...spec.tokenAliases], spec.currency)
            : setup.description === expected.exactly);
        if (!fits) {
          const wanted = expected === "pair" ? `${spec.token} / ${spec.currency}` : `"${typeof expected === "object" ? expected.exactly : ""}"`;
          throw new Error(`the feed at ${spec.address} describes itself as "${setup.description}", not ${wanted}`);
        }
        this.#options.logger.info(`reading ${spec.token} in ${spec.currency} from the price feed "${setup.description}"`, {
          feed: spec.address,
          feedChainId: spec.feedChainId,
          decimals: setup.decimals,
        });
        reader.setup = setup;
      }
      let { round, endpoint } = await readLatestRound(client, spec.address);
      // A round not yet compared, or told otherwise than when it was, is asked of the chain's other endpoints; one
      // outvoted is read again from the others.
      // Two stories and no majority: the round is not used (the chain is disputed meanwhile), and it is compared again
      // at the next read.
      let disputed: string | undefined;
      if (!sameRound(reader.checkedRound, round)) {
        const check = await crossCheckRound(client, spec.address, round, endpoint);
        if (check.kind === "disputed") disputed = check.problem;
        else {
          if (check.kind === "outvoted") ({ round, endpoint } = await readLatestRound(client, spec.address));
          reader.checkedRound = round;
        }
      }
      const verdict = judgeRound(round, reader.setup.decimals, spec.heartbeatS, Math.ceil(this.#intervalMs / 1000), nowS);
      if (disputed !== undefined) {
        outcome = this.#held(reader, disputed, nowS);
      } else if (verdict.ok) {
        const value = formatUnits(verdict.price.answer, verdict.price.decimals);
        const suspicion = suspectPrice(verdict.price, reader.lastGood?.price.feedPrice, spec);
        const unconfirmed = suspicion === undefined ? undefined : await this.#confirm(client, spec, round, endpoint);
        if (suspicion === undefined || unconfirmed === undefined) {
          const price = {
            feedPrice: verdict.price,
            shown: Object.freeze({ value, token: spec.token, feed: spec.address, feedChainId: spec.feedChainId, updatedAt: verdict.price.updatedAt }),
          };
          if (suspicion !== undefined)
            this.#options.logger.info(`a suspect price was confirmed by another endpoint: ${suspicion}`, { feed: spec.address, value });
          outcome = { price, problem: null };
          reader.lastGood = { price, endpoint };
          this.#keepPoints(reader.chainIds, (points) => points.add({ time: verdict.price.updatedAt, value }, priceSourceOf(endpoint)));
          if (reader.pastRead === "not yet") this.#readPast(reader, reader.setup, { roundId: round.roundId, updatedAt: verdict.price.updatedAt }, nowS);
        } else {
          outcome = this.#held(reader, `the price feed's newest round (${value} ${spec.currency}) is not used: ${suspicion}, and ${unconfirmed}`, nowS);
        }
      } else {
        outcome = { price: undefined, problem: verdict.problem };
      }
    } catch (error) {
      outcome = { price: undefined, problem: `the price feed could not be read: ${errorLine(error)}` };
    }
    for (const chainId of reader.chainIds) {
      this.#logOnce(`price ${chainId}`, outcome.problem, chainId);
      this.#update(chainId, (money) => {
        const same = money.priceProblem === outcome.problem && samePrice(money.price, outcome.price);
        return same ? money : { ...money, price: outcome.price, priceProblem: outcome.problem };
      });
    }
  }

  /**
   * Whether another endpoint of the feed's chain reads the suspect `round` alike (getRoundData of the same round):
   * undefined when it does, else why it is not confirmed (a clause).
   */
  async #confirm(client: ContractClient, spec: PriceFeedSpec, round: FeedRound, endpoint: string): Promise<string | undefined> {
    let other;
    try {
      other = await readRoundElsewhere(client, spec.address, round.roundId, endpoint);
    } catch (error) {
      return `no other endpoint of chain ${spec.feedChainId} could confirm it (${errorLine(error)})`;
    }
    if (other === undefined) return `chain ${spec.feedChainId} has no other endpoint to confirm it`;
    return sameRound(other.round, round)
      ? undefined
      : `another endpoint of chain ${spec.feedChainId} reads round ${round.roundId} otherwise (${other.round.answer} at ${other.round.updatedAt})`;
  }

  /**
   * A suspect round not confirmed: the last good price is kept while its round is as fresh as the feed's heartbeat
   * allows, and the problem says why the newer one is not used; past that, no price.
   */
  #held(reader: FeedReader, why: string, nowS: number): { price: ChainMoney["price"]; problem: string } {
    const last = reader.lastGood?.price;
    const fresh = last !== undefined && nowS - last.feedPrice.updatedAt <= allowedRoundAgeS(reader.spec.heartbeatS, Math.ceil(this.#intervalMs / 1000));
    return fresh
      ? { price: last, problem: `${why}; the last good price (${last.shown.value}) is kept` }
      : { price: undefined, problem: last === undefined ? why : `${why}; the last good price is too old to keep` };
  }

  /**
   * What the endpoint layer calls when it sets `endpoint` (its redacted URL, as the contract client names it) aside for lying: the price points read
   * from it are removed (memory and history file) and read back again from the endpoints left, and a price it gave is
   * taken down and read again at the next tick. Returns how many points were removed.
   */
  forgetFrom(endpoint: string): number {
    const source = priceSourceOf(endpoint);
    let removed = 0;
    for (const reader of this.#feeds) {
      let fromIt = 0;
      for (const chainId of reader.chainIds) {
        try {
          fromIt += this.#points.get(chainId)?.forgetFrom(source) ?? 0;
        } catch (error) {
          this.#logOnce(`points ${chainId}`, `price points could not be removed from the history file: ${errorLine(error)}`, chainId);
        }
      }
      const priceFromIt = reader.lastGood?.endpoint === endpoint;
      if (fromIt === 0 && !priceFromIt) continue;
      removed += fromIt;
      this.#options.logger.warn(`forgetting ${fromIt} price point${fromIt === 1 ? "" : "s"} from an endpoint set aside for lying; they are read again`, {
        feed: reader.spec.address,
        feedChainId: reader.spec.feedChainId,
      });
      // Read again at the next tick, the rounds of the points removed too.
      this.#lastReadAtMs.delete(feedKey(reader.spec));
      reader.pastRead = "not yet";
      reader.pastWalksStarted = 0;
      if (priceFromIt) {
        reader.lastGood = undefined;
        const problem = "the price was read from an endpoint set aside for lying: it is read again";
        for (const chainId of reader.chainIds) this.#update(chainId, (money) => ({ ...money, price: undefined, priceProblem: problem }));
      }
    }
    return removed;
  }

  /**
   * Price points kept for past ranges, for each chain the feed prices (`keep`: a round read, or rounds read back); a
   * store that fails to keep them is logged (once per problem, and its end), never taken for a failing feed.
   */
  #keepPoints(chainIds: readonly number[], keep: (points: PricePoints) => void): void {
    if (this.#stopped) return;
    for (const chainId of chainIds) {
      const points = this.#points.get(chainId);
      if (points === undefined) continue;
      try {
        keep(points);
        this.#logOnce(`points ${chainId}`, null, chainId);
      } catch (error) {
        this.#logOnce(`points ${chainId}`, `a price point could not be kept in the history file: ${errorLine(error)}`, chainId);
      }
    }
  }

  /**
   * Reads back, once per start, the feed's rounds from before its newest one (pastPriceRounds.ts), for every chain it
   * prices: back to the widest of their horizons, or to the points they held from before. Runs beside the timer's reads,
   * a batch a tick, and is said in the log when it ends.
   */
  #readPast(reader: FeedReader, setup: FeedSetup, latest: { roundId: bigint; updatedAt: number }, nowS: number): void {
    reader.pastRead = "started";
    reader.pastWalksStarted += 1;
    const chains = reader.chainIds.flatMap((chainId) => {
      const points = this.#points.get(chainId);
      return points === undefined ? [] : [points.pastWanted(nowS)];
    });
    if (chains.length === 0) return;
    const wanted = {
      horizonStartS: Math.min(...chains.map((chain) => chain.horizonStartS)),
      afterS: chains.every((chain) => chain.afterS !== undefined) ? Math.min(...chains.map((chain) => chain.afterS!)) : undefined,
    };
    const { spec } = reader;
    const client = this.#client(spec.feedChainId)!;
    const pauseMs = Math.min(TICK_MS, this.#intervalMs);
    // The endpoint that answered the batch being judged: its points are kept as its.
    let batchFrom: string | undefined;
    const walk = walkPastRounds({
      latest,
      decimals: setup.decimals,
      wanted,
      nowS,
      readBatch: async (roundIds) => {
        const { answers, endpoint } = await readPastRounds(client, spec.address, roundIds);
        batchFrom = endpoint;
        return answers;
      },
      keep: (past) => this.#keepPoints(reader.chainIds, (points) => points.addPast(past, batchFrom === undefined ? undefined : priceSourceOf(batchFrom))),
      heldAt: (timeS) => {
        for (const chainId of reader.chainIds) {
          const value = this.#points.get(chainId)?.valueAt(timeS);
          if (value !== undefined) return value;
        }
        return undefined;
      },
      pause: () => delay(pauseMs, true, { signal: this.#stopping.signal }).catch(() => false),
    })
      .then((outcome) => {
        const fields = {
          feed: spec.address,
          feedChainId: spec.feedChainId,
          roundsRead: outcome.roundsRead,
          pointsKept: outcome.pointsKept,
          pointsReplaced: outcome.pointsReplaced,
          ...(outcome.oldestS === undefined ? {} : { oldest: new Date(outcome.oldestS * 1000).toISOString() }),
        };
        const message = `read back ${outcome.pointsKept} past price${outcome.pointsKept === 1 ? "" : "s"} of "${setup.description}": ${outcome.end}`;
        const retry = outcome.retry && reader.pastWalksStarted < PAST_WALK_TRIES && !this.#stopped;
        // A walk cut short by the service's stop is a detail: the stop is said once, by whoever stopped it.
        if (this.#stopped) this.#options.logger.debug(message, fields);
        else if (outcome.expected) this.#options.logger.info(message, fields);
        else this.#options.logger.warn(retry ? `${message}; tried again at the next read` : message, fields);
        // Started again by the next good read of the newest round, a read interval from now.
        if (retry) reader.pastRead = "not yet";
      })
      .catch((error: unknown) => this.#options.logger.error("reading back past prices failed", { error: String(error) }))
      .finally(() => this.#pastWalks.delete(walk));
    this.#pastWalks.add(walk);
  }

  async #readL1(plan: ChainPlan): Promise<void> {
    const kind = plan.l1FeeKind ?? "none";
    if (kind === "none") return;
    if (!this.#answers(plan.chainId)) {
      this.#unreadable([plan.chainId], "l1", "no L1 fee yet: the chain has no answering RPC endpoint");
      return;
    }
    this.#lastReadAtMs.set(`l1 ${plan.chainId}`, this.#now());
    let fees: ReadonlyMap<number, bigint> | undefined;
    let problem: string | null = null;
    try {
      const client = this.#client(plan.chainId)!;
      const sizes = [...new Set(this.#options.txSizes)];
      const held = this.#l1Inputs.get(plan.chainId);
      const known = held !== undefined && this.#now() - held.readAtMs < L1_INPUTS_MAX_AGE_MS ? held.inputs : undefined;
      let read = await readL1Fees(client, kind, sizes, known);
      // The fee used is compared across the chain's endpoints (its smallest transaction's); one outvoted is read again.
      const size = Math.min(...sizes);
      const smallest = read.fees.get(size);
      const check = smallest === undefined ? undefined : await crossCheckL1Fee(client, kind, size, smallest, client.lastSource);
      if (check?.kind === "disputed") {
        // Two stories and no majority: no L1 fee is used, and the problem is the dispute's own whole sentence.
        problem = check.problem;
      } else {
        if (check?.kind === "outvoted") read = await readL1Fees(client, kind, sizes, known);
        fees = read.fees;
        if (read.opInputs !== undefined && read.opInputs !== known) this.#l1Inputs.set(plan.chainId, { inputs: read.opInputs, readAtMs: this.#now() });
      }
    } catch (error) {
      fees = undefined;
      this.#l1Inputs.delete(plan.chainId);
      const oracle = kind === "arbitrum" ? "ArbGasInfo" : "GasPriceOracle";
      problem =
        error instanceof L1FeeRefusedError
          ? `the L1 fee from the chain's ${oracle} is refused: ${error.message}`
          : `the L1 fee could not be read from the chain's ${oracle}: ${errorLine(error)}`;
    }
    // The OP stack's operator fee, from the same oracle through the same client (Isthmus; 0 on a chain before it).
    const operator = kind === "op-stack" ? await this.#readOperatorFees(plan.chainId) : { fees: undefined, problem: null };
    this.#logOnce(`l1 ${plan.chainId}`, [problem, operator.problem].filter((text) => text !== null).join("; ") || null, plan.chainId);
    this.#update(plan.chainId, (money) =>
      money.l1FeeProblem === problem &&
      sameFees(money.l1Fees, fees) &&
      (money.operatorFeeProblem ?? null) === operator.problem &&
      sameFees(money.operatorFees, operator.fees)
        ? money
        : { ...money, l1Fees: fees, l1FeeProblem: problem, operatorFees: operator.fees, operatorFeeProblem: operator.problem },
    );
  }

  async #readOperatorFees(chainId: number): Promise<{ fees: ReadonlyMap<bigint, bigint> | undefined; problem: string | null }> {
    try {
      return { fees: await readOperatorFees(this.#client(chainId)!, this.#options.gasAmounts ?? []), problem: null };
    } catch (error) {
      return { fees: undefined, problem: `the operator fee could not be read from the chain's GasPriceOracle: ${errorLine(error)}` };
    }
  }

  /**
   * The chain's blob schedule as its endpoint states it (eth_config). Not answered (most endpoints before Fusaka,
   * Hardhat): the blob view keeps the chain's known schedule, said at debug level only, as it is no fault.
   */
  async #readBlobSchedule(plan: ChainPlan): Promise<void> {
    if (!this.#answers(plan.chainId)) return;
    this.#lastReadAtMs.set(`config ${plan.chainId}`, this.#now());
    const answer = await readBlobSchedule(this.#client(plan.chainId)!);
    if (answer.kind === "unavailable") this.#options.logger.debug("no blob schedule from eth_config", { chainId: plan.chainId, reason: answer.reason });
    const schedule = answer.kind === "schedule" ? answer.schedule : undefined;
    this.#update(plan.chainId, (money) => (sameSchedule(money.blobSchedule, schedule) ? money : { ...money, blobSchedule: schedule }));
  }

  #answers(chainId: number): boolean {
    return this.#options.chainAnswers?.(chainId) ?? true;
  }

  /** A chain that cannot be read through now: its price (or L1 fee) is gone, said, and logged at debug level only. */
  #unreadable(chainIds: readonly number[], what: "price" | "l1", problem: string): void {
    for (const chainId of chainIds) {
      const money = this.#money.get(chainId);
      if ((what === "price" ? money?.priceProblem : money?.l1FeeProblem) !== problem) this.#options.logger.debug(problem, { chainId });
      this.#update(chainId, (money) =>
        what === "price"
          ? money.priceProblem === problem && money.price === undefined
            ? money
            : { ...money, price: undefined, priceProblem: problem }
          : money.l1FeeProblem === problem && money.l1Fees === undefined
            ? money
            : { ...money, l1Fees: undefined, l1FeeProblem: problem },
      );
    }
  }

  #update(chainId: number, change: (money: ChainMoney) => ChainMoney): void {
    const money = this.#money.get(chainId);
    if (money === undefined || this.#stopped) return;
    const next = change(money);
    if (next === money) return;
    const frozen = Object.freeze(next);
    this.#money.set(chainId, frozen);
    this.#options.onMoney(chainId, frozen);
  }

  /** A problem is logged when it starts (or changes), and its end once; the same problem read again is not logged again. */
  #logOnce(key: string, problem: string | null, chainId: number): void {
    const previous = this.#loggedProblems.get(key);
    if (problem === null) {
      const what = key.startsWith("price")
        ? "the price can be read again"
        : key.startsWith("l1")
          ? "the L1 fee can be read again"
          : "price points are kept again";
      if (previous !== undefined) this.#options.logger.info(what, { chainId });
      this.#loggedProblems.delete(key);
      return;
    }
    if (previous === problem) return;
    this.#loggedProblems.set(key, problem);
    this.#options.logger.warn(problem, { chainId });
  }
}

function samePrice(a: ChainMoney["price"], b: ChainMoney["price"]): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.shown.value === b.shown.value && a.shown.updatedAt === b.shown.updatedAt && a.shown.feed === b.shown.feed;
}

function sameSchedule(a: BlobSchedule | undefined, b: BlobSchedule | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.target === b.target && a.max === b.max && a.baseFeeUpdateFraction === b.baseFeeUpdateFraction;
}

function sameFees<K>(a: ReadonlyMap<K, bigint> | undefined, b: ReadonlyMap<K, bigint> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.size === b.size && [...a].every(([size, fee]) => b.get(size) === fee);
}
