// The endpoint layer: one per chain, one record per endpoint, every read of the chain (the live feed, the backfill,
// the contract reads for prices, L1 fees and eth_config) a user of it.
import { checkedBackoff, DEFAULT_BACKOFF, retryAfterOf, type BackoffOptions } from "./backoff.ts";
import { countedConnection, type RpcCallCounts } from "./countedConnection.ts";
import { EndpointHealth } from "./endpointHealth.ts";
import { WrongChainError } from "../connection/errors.ts";
import { parseRpcChainId } from "../connection/parseRpcAnswers.ts";
import { endpointNamesOf } from "../connection/redactUrl.ts";
import { createRpcConnection, transportOf, type RpcConnection } from "../connection/rpcConnection.ts";
import type { EndpointStatus } from "../../wire/networkStatus.ts";

/**
 * Who reads through an endpoint. Each user has a connection of its own (a lane), so that the backfill's pages (the
 * history's, and the outlook's hours before it), the
 * contract reads and the endpoints' cross-checks never delay the head, and its own call counts; the endpoint's health
 * is one for all of them.
 */
export type EndpointLane = "feed" | "backfill" | "outlook" | "contracts" | "checks";

/** Why an endpoint is set aside (shown in its status): its head or a rewrite (chainHead), another chain, or a lie. */
export type SetAsideReason = NonNullable<EndpointStatus["setAsideFor"]>;

/** An endpoint found lying (its answers disagree with the other endpoints' or with the history held) is left this long. */
export const LYING_SET_ASIDE_MS = 10 * 60_000;

interface Lane {
  readonly connection: RpcConnection;
  readonly counts: RpcCallCounts;
  /** Its chain id was asked through this connection since it (re)connected. */
  chainIdChecked: boolean;
}

/**
 * One endpoint of a chain: its URL (never shown), its name, and its one health record (EndpointHealth: state, chain id
 * reported, last error, backoff). Read-only to users: every change goes through the ChainEndpoints that holds it.
 */
export class ChainEndpoint {
  readonly #url: string;
  readonly redactedUrl: string;
  readonly transport: "http" | "ws";
  /** Its place in the configured order (the order of preference). */
  readonly index: number;
  readonly health: EndpointHealth;
  /** Why it is set aside now; undefined while usable or only failing. */
  setAsideFor: SetAsideReason | undefined;
  readonly lanes = new Map<EndpointLane, Lane>();

  constructor(url: string, shownAs: string, index: number, backoff: BackoffOptions) {
    this.#url = url;
    this.transport = transportOf(url);
    this.redactedUrl = shownAs;
    this.index = index;
    this.health = new EndpointHealth(backoff);
  }

  /** The lane's connection, opened at its first use with `timeoutMs`. */
  lane(name: EndpointLane, timeoutMs: number): Lane {
    let lane = this.lanes.get(name);
    if (lane === undefined) {
      const counts = { calls: 0, failures: 0 };
      lane = {
        connection: countedConnection(createRpcConnection(this.#url, { timeoutMs, shownAs: this.redactedUrl }), counts),
        counts,
        chainIdChecked: false,
      };
      this.lanes.set(name, lane);
    }
    return lane;
  }

  /** Usable by every reader: answering, or not tried yet (not failing, not set aside). */
  get trusted(): boolean {
    return this.health.state === "ok" || this.health.state === "unknown";
  }
}

export interface ChainEndpointsOptions {
  /** Per request, for every lane unless it asks for its own; default 10 s. */
  readonly timeoutMs?: number;
  /** The one backoff policy (1 s doubling to 60 s by default), a Retry-After honoured. */
  readonly backoff?: Partial<BackoffOptions>;
  /** The user's name of an endpoint, by its URL (settings' `rpcLabels`), shown after its origin. */
  readonly labels?: Readonly<Record<string, string>> | undefined;
  /** Epoch ms; tests may pin it. */
  readonly now?: () => number;
}

/**
 * A chain's endpoints, for every reader of the chain: one health record per endpoint, one backoff (a Retry-After
 * honoured, whichever lane got it), one chain-id check (asked again through a lane after it reconnects), one set-aside
 * policy, and the statuses `/networks` shows. Readers hold no connection of their own: they ask for the lane's.
 *
 * Listeners (`onChange`) hear of every change made through `setAside`, `askedToWait` and `trustAgain`: the live
 * feed republishes the endpoint's status and schedules its check, the backfill and the contract reads skip it.
 */
export class ChainEndpoints {
  readonly chainId: number;
  readonly #endpoints: readonly ChainEndpoint[];
  readonly #timeoutMs: number;
  readonly #backoff: Required<BackoffOptions>;
  readonly #now: () => number;
  readonly #listeners = new Set<(endpoint: ChainEndpoint | undefined, by: EndpointLane | undefined) => void>();
  #closed = false;
  #active: ChainEndpoint | undefined;
  /** Disagreements no majority settles, by what they are about (a block, a feed's round): how they differed. */
  readonly #disputes = new Map<string, string>();

  constructor(chainId: number, urls: readonly string[], options: ChainEndpointsOptions = {}) {
    if (urls.length === 0) throw new RangeError(`chain ${chainId} needs at least one RPC URL`);
    this.chainId = chainId;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#backoff = checkedBackoff({ ...DEFAULT_BACKOFF, ...options.backoff });
    this.#now = options.now ?? Date.now;
    const names = endpointNamesOf(urls, options.labels);
    this.#endpoints = Object.freeze(urls.map((url, index) => new ChainEndpoint(url, names[index]!, index, this.#backoff)));
  }

  /** Every endpoint, in the configured order. */
  get endpoints(): readonly ChainEndpoint[] {
    return this.#endpoints;
  }

  get backoff(): Required<BackoffOptions> {
    return this.#backoff;
  }

  /** Endpoints every reader may use now, in order: answering or not tried yet; none failing, none set aside. */
  trusted(): ChainEndpoint[] {
    return this.#endpoints.filter((endpoint) => endpoint.trusted);
  }

  /**
   * The one source the chain's data comes from now: the endpoint the live feed follows while the layer trusts it, else
   * the first trusted one. The backfill reads its pages from it, so that the history is one endpoint's story at a time.
   */
  source(): ChainEndpoint | undefined {
    return this.#active?.trusted === true ? this.#active : this.trusted()[0];
  }

  /** The endpoint the live feed follows the chain through (its pool says so), or none. */
  markActive(endpoint: ChainEndpoint | undefined): void {
    this.#active = endpoint === undefined ? undefined : this.#own(endpoint);
  }

  /**
   * A disagreement between endpoints (or an endpoint and the history held) that no majority settles, about `subject`
   * (a block, a feed's round): the chain is disputed until every such disagreement is settled. Said to listeners.
   */
  dispute(subject: string, how: string): void {
    if (this.#disputes.get(subject) === how) return;
    this.#disputes.set(subject, how);
    this.#changed(undefined, undefined);
  }

  /** The disagreement about `subject` is over (the endpoints agree again, or a majority settled it). */
  settle(subject: string): void {
    if (this.#disputes.delete(subject)) this.#changed(undefined, undefined);
  }

  /** How the disagreements no majority settles differ, oldest first; empty while none. */
  get disputes(): readonly string[] {
    return [...this.#disputes.values()];
  }

  /** The lane's connection to the endpoint (opened at its first use; `timeoutMs` then, else the layer's). */
  connection(endpoint: ChainEndpoint, lane: EndpointLane, timeoutMs?: number): RpcConnection {
    return this.#own(endpoint).lane(lane, timeoutMs ?? this.#timeoutMs).connection;
  }

  /** JSON-RPC calls made through the lane, over every endpoint, and per endpoint (redacted URL). */
  callCounts(lane: EndpointLane): { readonly url: string; readonly calls: number; readonly failures: number }[] {
    return this.#endpoints.map((endpoint) => {
      const counts = endpoint.lanes.get(lane)?.counts;
      return { url: endpoint.redactedUrl, calls: counts?.calls ?? 0, failures: counts?.failures ?? 0 };
    });
  }

  /**
   * The one chain-id check: asks `eth_chainId` through the lane unless it was asked since the lane last (re)connected
   * (or `force`). The id reported is kept; another chain's sets the endpoint aside for every lane (the longest wait;
   * `setAside: false` leaves that to the caller, the feed's pool) and throws WrongChainError. The connection's own errors pass through.
   */
  async checkChainId(
    endpoint: ChainEndpoint,
    lane: EndpointLane,
    options: { readonly force?: boolean; readonly timeoutMs?: number; readonly setAside?: boolean } = {},
  ): Promise<number> {
    const own = this.#own(endpoint).lane(lane, options.timeoutMs ?? this.#timeoutMs);
    if (own.chainIdChecked && options.force !== true && endpoint.health.reportedChainId === this.chainId) return this.chainId;
    const reported = parseRpcChainId(await own.connection.request("eth_chainId", []), endpoint.redactedUrl);
    endpoint.health.recordChainId(reported);
    if (reported !== this.chainId) {
      const error = new WrongChainError(endpoint.redactedUrl, this.chainId, reported);
      if (options.setAside !== false) this.setAside(endpoint, "wrong-chain", error, { by: lane });
      throw error;
    }
    own.chainIdChecked = true;
    return reported;
  }

  /** The lane's chain id was asked since it last (re)connected, and it is the chain's. */
  chainIdKnown(endpoint: ChainEndpoint, lane: EndpointLane): boolean {
    return this.#own(endpoint).lanes.get(lane)?.chainIdChecked === true && endpoint.health.reportedChainId === this.chainId;
  }

  /**
   * An endpoint that only failed (or asked every reader to wait) and whose wait is over at `now` may be asked again: its
   * lanes' chain ids are asked again first. One set aside (another chain, a lie, a head it cannot have) is not: the
   * live feed's check brings it back. True when it is usable again.
   */
  waitOver(endpoint: ChainEndpoint, now: number): boolean {
    const own = this.#own(endpoint);
    if (own.health.state !== "failing" || own.setAsideFor !== undefined || own.health.waitMs(now) > 0) return false;
    own.health.markAnswering();
    for (const lane of own.lanes.values()) lane.chainIdChecked = false;
    return true;
  }

  /** Closes the lane's connection: its next request connects again, and its chain id is asked again first. */
  reconnect(endpoint: ChainEndpoint, lane: EndpointLane): void {
    const own = this.#own(endpoint).lanes.get(lane);
    if (own === undefined) return;
    own.connection.close();
    own.chainIdChecked = false;
  }

  /**
   * The one set-aside policy. `wrong-chain`: it serves another chain, left the longest wait of the backoff; a lie
   * (`disagrees`: its blocks, hashes, prices or fees differ from the other endpoints' or from the history held), left
   * LYING_SET_ASIDE_MS; a head or a rewrite the chain cannot have (`ahead`, `behind`, `rewound`), backed off as a
   * failure. Every lane is closed (its chain id asked again after); no reader uses it until the live feed's check finds
   * it fit again (`trustAgain`, or the feed's pool). Said to every listener.
   */
  setAside(
    endpoint: ChainEndpoint,
    reason: SetAsideReason,
    error: Error,
    options: { readonly waitMs?: number; readonly now?: number; readonly by?: EndpointLane } = {},
  ): void {
    const own = this.#own(endpoint);
    const { waitMs } = options;
    const now = options.now ?? this.#now();
    const before = `${own.health.state} ${own.setAsideFor} ${own.health.lastError}`;
    if (reason === "wrong-chain") own.health.setAside("wrong-chain", error, now, waitMs ?? this.#backoff.maxMs);
    else if (reason === "disagrees") own.health.setAside("suspect", error, now, waitMs ?? LYING_SET_ASIDE_MS);
    else own.health.markFailing(error, now, "suspect");
    own.health.markUnverified();
    own.setAsideFor = reason;
    for (const lane of own.lanes.keys()) this.reconnect(own, lane);
    if (before !== `${own.health.state} ${own.setAsideFor} ${own.health.lastError}`) this.#changed(own, options.by);
  }

  /**
   * A lane's request failed (unreachable, an HTTP or JSON-RPC error, garbage). A failure that asked for a wait (a
   * 429's or 503's Retry-After) is the endpoint's: every lane waits it out (the endpoint backs off as the one policy
   * says); other failures are the lane's to pace (a page timing out is no reason to leave the head).
   * True when the endpoint now waits.
   */
  askedToWait(endpoint: ChainEndpoint, error: unknown, by?: EndpointLane): boolean {
    if (!(retryAfterOf(error) !== undefined && retryAfterOf(error)! > 0)) return false;
    const own = this.#own(endpoint);
    own.health.markFailing(error as Error, this.#now());
    own.health.markUnverified();
    this.#changed(own, by);
    return true;
  }

  /** It passed a check again (the feed's, after its wait): every reader may use it. */
  trustAgain(endpoint: ChainEndpoint): void {
    const own = this.#own(endpoint);
    own.setAsideFor = undefined;
  }

  /**
   * Calls `listener` after each change of an endpoint's health made through the layer, with the lane that made it
   * (undefined: a cross-check, or a reader that did not say), and (with no endpoint) after each dispute said or
   * settled; returns the unsubscribe.
   */
  onChange(listener: (endpoint: ChainEndpoint | undefined, by: EndpointLane | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Each endpoint as `/networks` shows it; `active` is the one the feed follows the chain through. */
  statuses(active: ChainEndpoint | undefined): EndpointStatus[] {
    return this.#endpoints.map((endpoint) => {
      const { health } = endpoint;
      return {
        url: endpoint.redactedUrl,
        transport: endpoint.transport,
        state: health.state,
        active: endpoint === active,
        ...(health.lastError === undefined ? {} : { lastError: health.lastError }),
        ...(health.reportedChainId === undefined ? {} : { reportedChainId: health.reportedChainId }),
        ...(health.retryAt === undefined ? {} : { retryAt: health.retryAt }),
        ...(endpoint.setAsideFor === undefined || endpoint.trusted ? {} : { setAsideFor: endpoint.setAsideFor }),
      };
    });
  }

  /** Closes every lane of every endpoint (the chain is no longer followed). */
  close(): void {
    this.#closed = true;
    for (const endpoint of this.#endpoints) for (const lane of endpoint.lanes.values()) lane.connection.close();
  }

  get closed(): boolean {
    return this.#closed;
  }

  #changed(endpoint: ChainEndpoint | undefined, by: EndpointLane | undefined): void {
    for (const listener of this.#listeners) {
      try {
        listener(endpoint, by);
      } catch {
        // A listener's failure is its own; the others still hear of the change.
      }
    }
  }

  /** The layer's record behind `endpoint`; one of another layer is a programming error. */
  #own(endpoint: ChainEndpoint): ChainEndpoint {
    if (!this.#endpoints.includes(endpoint)) throw new Error(`${endpoint.redactedUrl} is not an endpoint of chain ${this.chainId}`);
    return endpoint;
  }
}
