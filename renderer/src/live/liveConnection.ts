// The page's one connection to the service: the token checked with a plain request, then one event stream for every
// chain; on any failure the stream is closed and the token checked again, which tells a service that is gone from one
// that refuses the token. Everything the page shows live comes from the snapshot kept here.
import { ApiCallError } from "./apiCallError.ts";
import { type AlertsFeed, type AlertsState, EMPTY_ALERTS, withAlertsState, withFiredAlert } from "./alertsFeed.ts";
import { AlertsRefresh } from "./alertsRefresh.ts";
import { applyNetworkEvent, type DashboardFeed, EMPTY_FEED, keepChains } from "./dashboardFeed.ts";
import type { AlertEvent, DataClient } from "./dataClient.ts";
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
  /** The alert rules' state (`GET /alerts`) and the alerts fired while the page is open. */
  readonly alerts: AlertsFeed;
}

/** How soon to ask again after a failure, growing to the last value while failures go on. */
const RETRY_DELAYS_MS = [0, 500, 1_000, 2_000, 3_000];
/**
 * The stream's heartbeats are comments, which EventSource does not report: after this long without an event, a plain
 * request checks that the service is still there (a hung service keeps the socket open and sends nothing).
 */
const QUIET_CHECK_MS = 30_000;
/**
 * `GET /alerts` is asked when the stream opens and at once when an alert fires; and, while the user has rules of their
 * own (a percentile rule's threshold moves with its window, and a rule re-arms without an event), with the chains'
 * events, at most this often. Without rules of the user's own, nothing is asked per block.
 */
const ALERTS_REFRESH_MS = 2_000;

export class LiveConnection {
  readonly #client: DataClient;
  #snapshot: LiveSnapshot = { link: { kind: "connecting" }, feed: EMPTY_FEED, panelKey: { kind: "loading" }, alerts: EMPTY_ALERTS };
  readonly #listeners = new Set<() => void>();
  #lastContactAt: number | undefined;
  #run: ConnectionRun | undefined;

  constructor(client: DataClient) {
    this.#client = client;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getSnapshot = (): LiveSnapshot => this.#snapshot;

  /** Asks for the alert rules' state again now (after the settings changed them). */
  readonly refreshAlerts = (): void => this.#run?.askAlertsNow();

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
      alertsState: (state) => this.#update({ alerts: withAlertsState(this.#snapshot.alerts, state) }),
      alertFired: (event) => this.#update({ alerts: withFiredAlert(this.#snapshot.alerts, event, Date.now()) }),
    });
    this.#run = run;
    run.check();
    return () => {
      run.stop();
      if (this.#run === run) this.#run = undefined;
    };
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
  alertsState(state: AlertsState): void;
  alertFired(event: AlertEvent): void;
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
  readonly #alerts: AlertsRefresh;
  /** The service has no `GET /alerts` (404): not asked again. */
  #alertsUnavailable = false;
  /** The service's last answer listed enabled rules of the user's own: their state is followed block by block. */
  #followsUserRules = false;

  constructor(client: DataClient, report: RunReports) {
    this.#client = client;
    this.#report = report;
    this.#alerts = new AlertsRefresh(() => this.#askAlerts(), ALERTS_REFRESH_MS);
  }

  stop(): void {
    this.#abort.abort();
    this.#alerts.stop();
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
        this.askAlertsNow();
      },
      onEvent: (event) => {
        this.#failures = 0;
        this.#lastEventAt = performance.now();
        this.#report.contact();
        const receivedAt = performance.now();
        this.#report.feed((feed) => applyNetworkEvent(feed, event, receivedAt));
        if (this.#followsUserRules) this.#alerts.soon();
      },
      onAlert: (event) => {
        this.#lastEventAt = performance.now();
        this.#report.contact();
        this.#report.alertFired(event);
        this.askAlertsNow();
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

  askAlertsNow(): void {
    if (!this.#alertsUnavailable) this.#alerts.now();
  }

  /** One `GET /alerts`; a failure keeps what was known (the token check tells a gone service from a refusing one). */
  async #askAlerts(): Promise<void> {
    try {
      const body = await this.#client.alerts(this.#abort.signal);
      if (this.#stopped) return;
      this.#followsUserRules = body.rules.some((rule) => rule.builtIn === null && rule.enabled);
      this.#report.alertsState({ kind: "known", body });
    } catch (error) {
      if (this.#stopped || !(error instanceof ApiCallError) || error.status !== 404) return;
      this.#alertsUnavailable = true;
      this.#followsUserRules = false;
      this.#report.alertsState({ kind: "unavailable", reason: "this gasfees service has no alert rules (GET /alerts answered 404): update it" });
    }
  }

  #askPanelKey(): void {
    const token = this.#client.token;
    this.#client.credentials(this.#abort.signal).then(
      (ok) => this.#stopped || this.#report.panelKey(panelKeyOf(token, { ok })),
      (failed: unknown) => this.#stopped || this.#report.panelKey(panelKeyOf(token, { failed })),
    );
  }
}
