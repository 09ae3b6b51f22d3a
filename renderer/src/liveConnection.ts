// The page's one connection to the service: the token checked with a plain request, then one event stream for every
// chain; on any failure the stream is closed and the token checked again, which tells a service that is gone from one
// that refuses the token. Everything the page shows live comes from the snapshot kept here.
import { applyNetworkEvent, type DashboardFeed, EMPTY_FEED, keepChains } from "./dashboardFeed.ts";
import type { DataClient } from "./dataClient.ts";
import { type PanelKey, panelKeyOf } from "./panelKey.ts";

/**
 * - connecting: no answer from the service yet since the page opened;
 * - live: the stream is open, so what the page shows is current;
 * - reconnecting: the service answers, the stream is being opened again;
 * - unreachable: the service does not answer; the page retries by itself;
 * - rejected: the service refuses the token (wrong, rotated or revoked): nothing more is tried.
 * `lastContactAt` (epoch ms) is when the service was last known to be there: an event, an answer, or an open stream
 * that had not yet failed.
 */
export type LinkState =
  | { readonly kind: "connecting" }
  | { readonly kind: "live" }
  | { readonly kind: "reconnecting"; readonly lastContactAt: number }
  | { readonly kind: "unreachable"; readonly lastContactAt: number | undefined; readonly reason: string }
  | { readonly kind: "rejected"; readonly reason: string };

export interface LiveSnapshot {
  readonly link: LinkState;
  readonly feed: DashboardFeed;
  readonly panelKey: PanelKey;
}

/** How soon to ask again after a failure, growing to the last value while failures go on. */
const RETRY_DELAYS_MS = [0, 500, 1_000, 2_000, 3_000];
/**
 * The stream's heartbeats are comments, which EventSource does not report: after this long without an event, a plain
 * request checks that the service is still there (a hung service keeps the socket open and sends nothing).
 */
const QUIET_CHECK_MS = 30_000;

export class LiveConnection {
  readonly #client: DataClient;
  #snapshot: LiveSnapshot = { link: { kind: "connecting" }, feed: EMPTY_FEED, panelKey: { kind: "loading" } };
  readonly #listeners = new Set<() => void>();
  #lastContactAt: number | undefined;

  constructor(client: DataClient) {
    this.#client = client;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getSnapshot = (): LiveSnapshot => this.#snapshot;

  /** Connects, and keeps connecting until stopped or the token is rejected. Returns the function that stops it. */
  start(): () => void {
    const run = new ConnectionRun(this.#client, {
      contact: () => {
        this.#lastContactAt = Date.now();
      },
      link: (kind, reason) => this.#setLink(kind, reason),
      feed: (update) => this.#update({ feed: update(this.#snapshot.feed) }),
      panelKey: (panelKey) => {
        // A failed ask (the service went away meanwhile) does not hide a key already known; the next connection asks again.
        const known = this.#snapshot.panelKey.kind === "key" || this.#snapshot.panelKey.kind === "none";
        if (!(panelKey.kind === "unavailable" && known)) this.#update({ panelKey });
      },
    });
    run.check();
    return () => run.stop();
  }

  #setLink(kind: "live" | "reconnecting" | "unreachable" | "rejected", reason = ""): void {
    const contact = this.#lastContactAt;
    const previous = this.#snapshot.link;
    const link: LinkState =
      kind === "live"
        ? { kind }
        : kind === "rejected"
          ? { kind, reason }
          : kind === "unreachable"
            ? { kind, lastContactAt: contact, reason }
            : // Until the first stream opens, the page is still connecting for the first time.
              contact === undefined || previous.kind === "connecting"
              ? { kind: "connecting" }
              : { kind, lastContactAt: contact };
    const same =
      previous.kind === link.kind &&
      ("lastContactAt" in previous ? previous.lastContactAt : undefined) === ("lastContactAt" in link ? link.lastContactAt : undefined) &&
      ("reason" in previous ? previous.reason : undefined) === ("reason" in link ? link.reason : undefined);
    if (!same) this.#update({ link });
  }

  #update(change: Partial<LiveSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...change };
    for (const listener of this.#listeners) listener();
  }
}

interface RunReports {
  contact(): void;
  link(kind: "live" | "reconnecting" | "unreachable" | "rejected", reason?: string): void;
  feed(update: (feed: DashboardFeed) => DashboardFeed): void;
  panelKey(panelKey: PanelKey): void;
}

/** One start-to-stop of the connection: its timers, its stream and its requests, all ended by `stop()`. */
class ConnectionRun {
  readonly #client: DataClient;
  readonly #report: RunReports;
  readonly #abort = new AbortController();
  #closeStream: (() => void) | undefined;
  #retryTimer: number | undefined;
  #quietTimer: number | undefined;
  #failures = 0;
  #lastEventAt = 0;
  #checking = false;

  constructor(client: DataClient, report: RunReports) {
    this.#client = client;
    this.#report = report;
  }

  stop(): void {
    this.#abort.abort();
    this.#closeStream?.();
    this.#closeStream = undefined;
    window.clearTimeout(this.#retryTimer);
    window.clearInterval(this.#quietTimer);
  }

  get #stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  /** Asks the service about the token; opens the stream if it takes it, else says why and (unless refused) retries. */
  check(): void {
    if (this.#stopped || this.#checking) return;
    this.#checking = true;
    void this.#client.checkToken(this.#abort.signal).then((answer) => {
      this.#checking = false;
      if (this.#stopped) return;
      switch (answer.kind) {
        case "accepted":
          this.#report.contact();
          this.#report.feed((feed) => keepChains(feed, answer.chainIds));
          // A check while the stream is open only confirms that the service is there.
          if (this.#closeStream === undefined) {
            this.#report.link("reconnecting");
            this.#askPanelKey();
            this.#openStream();
          }
          return;
        case "rejected":
          this.#closeStream?.();
          this.#closeStream = undefined;
          this.#report.link("rejected", answer.message);
          this.stop();
          return;
        case "refused":
          this.#report.contact();
          this.#dropStream();
          this.#report.link("reconnecting");
          this.#retryLater();
          return;
        case "unreachable":
          this.#dropStream();
          this.#report.link("unreachable", answer.message);
          this.#retryLater();
          return;
      }
    });
  }

  #openStream(): void {
    this.#closeStream = this.#client.openEvents({
      onOpen: () => {
        this.#report.contact();
        this.#lastEventAt = performance.now();
        this.#report.link("live");
        this.#watchQuiet();
      },
      onEvent: (event) => {
        this.#failures = 0;
        this.#lastEventAt = performance.now();
        this.#report.contact();
        const receivedAt = performance.now();
        this.#report.feed((feed) => applyNetworkEvent(feed, event, receivedAt));
      },
      onError: (wasOpen) => {
        // The connection was there until this moment.
        if (wasOpen) this.#report.contact();
        this.#closeStream = undefined;
        window.clearInterval(this.#quietTimer);
        this.#report.link("reconnecting");
        this.#retryLater();
      },
    });
  }

  #dropStream(): void {
    this.#closeStream?.();
    this.#closeStream = undefined;
    window.clearInterval(this.#quietTimer);
  }

  #retryLater(): void {
    window.clearTimeout(this.#retryTimer);
    const delayMs = RETRY_DELAYS_MS[Math.min(this.#failures, RETRY_DELAYS_MS.length - 1)]!;
    this.#failures++;
    this.#retryTimer = window.setTimeout(() => this.check(), delayMs);
  }

  #watchQuiet(): void {
    window.clearInterval(this.#quietTimer);
    this.#quietTimer = window.setInterval(() => {
      if (performance.now() - this.#lastEventAt >= QUIET_CHECK_MS) {
        this.#lastEventAt = performance.now();
        this.check();
      }
    }, QUIET_CHECK_MS / 2);
  }

  #askPanelKey(): void {
    const token = this.#client.token;
    this.#client.credentials(this.#abort.signal).then(
      (ok) => this.#stopped || this.#report.panelKey(panelKeyOf(token, { ok })),
      (failed: unknown) => this.#stopped || this.#report.panelKey(panelKeyOf(token, { failed })),
    );
  }
}
