// The one way the dashboard talks to the service: typed calls over fetch, and one Server-Sent Event stream for every
// chain. It only asks and reports; when to ask again is liveConnection.ts's business.
import { ALERT_EVENT_NAME, type AlertEvent, type AlertsBody, alertEventSchema, alertsBodySchema } from "../../../shared/wire/alerts.ts";
import type { z } from "zod";
import type { DashboardCredentials } from "../../../shared/wire/apiBodies.ts";
import type { BaseFeeStatsBucket } from "../../../shared/wire/baseFeeStats.ts";
import { type Costs, costsSchema, type PriceHistory, priceHistorySchema } from "../../../shared/wire/costs.ts";
import { NETWORK_EVENT_NAME } from "../../../shared/wire/eventNames.ts";
import { type HourlyStats, hourlyStatsSchema } from "../../../shared/wire/hourlyStats.ts";
import type { NetworkEvent } from "../../../shared/wire/networkEvent.ts";
import type { NetworkStatus } from "../../../shared/wire/networkStatus.ts";
import { notEnoughHistoryBodySchema, outlookBodySchema } from "../../../shared/wire/outlook.ts";
import { ApiCallError } from "./apiCallError.ts";
import type { Connection } from "./connection.ts";
import { statsQueryString, type StatsRequest } from "./statsRequest.ts";
import { type OutlookAnswer, type OutlookQuery, outlookQueryString } from "./outlookRequest.ts";

export type { AlertEvent, AlertRuleProblem, AlertRuleStatus, AlertsBody } from "../../../shared/wire/alerts.ts";
export type { DashboardCredentials } from "../../../shared/wire/apiBodies.ts";
export type { ActionCost, Costs, Price, PriceHistory, PricePoint } from "../../../shared/wire/costs.ts";
export type { BaseFeeStatsBucket } from "../../../shared/wire/baseFeeStats.ts";
export type { HourlyStats, HourlyStatsRow } from "../../../shared/wire/hourlyStats.ts";
export type { BlockRun, NetworkEvent } from "../../../shared/wire/networkEvent.ts";
export type { EndpointStatus, NetworkStatus } from "../../../shared/wire/networkStatus.ts";
export type { OutlookBacktest, OutlookBody, ReliabilityBin } from "../../../shared/wire/outlook.ts";
export type { OutlookAnswer } from "./outlookRequest.ts";

/**
 * What the service says of the page's token. EventSource hides HTTP statuses (a refused stream and a stopped service
 * look alike to it), so a plain request tells them apart.
 * - accepted: the service answers and takes the token; `chainIds` are its configured chains, in its order;
 * - rejected: it answers 401: the token is wrong, or was rotated or revoked;
 * - unreachable: no answer at all (stopped, or not answering within the timeout);
 * - refused: it answers, but not with the data (rate limited, or failing): worth asking again later.
 */
export type TokenCheck =
  | { readonly kind: "accepted"; readonly chainIds: readonly number[] }
  | { readonly kind: "rejected"; readonly message: string }
  | { readonly kind: "unreachable"; readonly message: string }
  | { readonly kind: "refused"; readonly message: string };

export interface EventHandlers {
  /** The stream is open: the full state of every chain follows at once. */
  onOpen(): void;
  onEvent(event: NetworkEvent): void;
  /** An alert rule fired (`event: alert`), parsed with the wire schema. */
  onAlert(event: AlertEvent): void;
  /** The stream failed and was closed; `wasOpen` says whether it had been open (the service was there until now). */
  onError(wasOpen: boolean): void;
}

export interface DataClient {
  readonly baseUrl: string;
  /** What the page was opened with: the dashboard's token, or one of the user's API keys. */
  readonly token: string;
  /** Asks `GET /networks` with the token (see TokenCheck). */
  checkToken(signal: AbortSignal): Promise<TokenCheck>;
  /** `GET /dashboard/credentials`: a user key for the API panel. Throws ApiCallError (401 when the token is itself a user key). */
  credentials(signal: AbortSignal): Promise<DashboardCredentials>;
  /**
   * `GET /networks/{chainId}/baseFeeStats`: the chain's held history in time buckets, oldest first. Throws ApiCallError
   * when the service refuses (with its code: NO_DATA while the chain has no data, INVALID_QUERY, …), or a network error.
   */
  baseFeeStats(chainId: number, request: StatsRequest, signal: AbortSignal): Promise<readonly BaseFeeStatsBucket[]>;
  /**
   * `GET /alerts`: every alert rule with its state, parsed with the wire schema. Throws ApiCallError when the service
   * refuses (404 from a service without alerts), or an error naming what does not match the schema.
   */
  alerts(signal: AbortSignal): Promise<AlertsBody>;
  /**
   * `GET /networks/{chainId}/costs`: what each action costs now, in wei and in the currency, parsed with the wire
   * schema. Throws ApiCallError when the service refuses (with its code), or an error naming what does not match.
   */
  costs(chainId: number, signal: AbortSignal): Promise<Costs>;
  /**
   * `GET /networks/{chainId}/priceHistory?from=…`: the gas token's price points held from `fromSeconds` up to now,
   * oldest first, led by the one in force at `fromSeconds`; [] on a chain without a price. Throws as `costs` does.
   */
  priceHistory(chainId: number, fromSeconds: number, signal: AbortSignal): Promise<PriceHistory>;
  /**
   * `GET /networks/{chainId}/outlook?within=…` with at most one threshold, parsed with the wire schema; 422
   * NOT_ENOUGH_HISTORY comes back as an answer of its own. Throws as `costs` does otherwise.
   */
  outlook(chainId: number, query: OutlookQuery, signal: AbortSignal): Promise<OutlookAnswer>;
  /**
   * `GET /networks/{chainId}/hourlyStats`: every hourly summary of the chain held (a year at most), oldest first, parsed
   * with the wire schema. Throws as `costs` does.
   */
  hourlyStats(chainId: number, signal: AbortSignal): Promise<HourlyStats>;
  /** Opens `GET /events` (every chain). No retry of its own: after `onError` it is closed. Returns the function that closes it. */
  openEvents(handlers: EventHandlers): () => void;
}

/** A check that gets no answer within this counts as unreachable (a hung service, not only a stopped one). */
const CHECK_TIMEOUT_MS = 8_000;

export function createDataClient({ baseUrl, token }: Connection): DataClient {
  const authorization = `Basic ${btoa(`${token}:`)}`;
  const get = (path: string, signal: AbortSignal) =>
    fetch(`${baseUrl}${path}`, { headers: { authorization }, signal: AbortSignal.any([signal, AbortSignal.timeout(CHECK_TIMEOUT_MS)]), cache: "no-store" });

  /** A GET whose 200 body is parsed with `schema`: ApiCallError when the service refuses, an Error naming what does not match. */
  const getParsed = async <T>(path: string, schema: z.ZodType<T>, what: string, signal: AbortSignal): Promise<T> => {
    const response = await get(path, signal);
    const body = await readJson(response);
    if (!response.ok) {
      const error = body as { code?: string } | undefined;
      throw new ApiCallError(messageOf(body) ?? `the service answered ${response.status}`, response.status, error?.code);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new Error(`${what} answered something this page cannot read: ${parsed.error.message}`);
    return parsed.data;
  };

  return {
    baseUrl,
    token,

    async checkToken(signal) {
      let response: Response;
      try {
        response = await get("/networks", signal);
      } catch (error) {
        return { kind: "unreachable", message: describeNetworkFailure(error, baseUrl) };
      }
      const body = await readJson(response);
      if (response.status === 401) return { kind: "rejected", message: messageOf(body) ?? "the service refused the token (401)" };
      if (!response.ok || !Array.isArray(body)) return { kind: "refused", message: messageOf(body) ?? `the service answered ${response.status}` };
      return { kind: "accepted", chainIds: (body as NetworkStatus[]).map((network) => network.chainId) };
    },

    async credentials(signal) {
      const response = await get("/dashboard/credentials", signal);
      const body = await readJson(response);
      if (!response.ok) {
        const error = body as { code?: string } | undefined;
        throw new ApiCallError(messageOf(body) ?? `the service answered ${response.status}`, response.status, error?.code);
      }
      return body as DashboardCredentials;
    },

    async baseFeeStats(chainId, request, signal) {
      const response = await get(`/networks/${chainId}/baseFeeStats?${statsQueryString(request)}`, signal);
      const body = await readJson(response);
      if (!response.ok || !Array.isArray(body)) {
        const error = body as { code?: string } | undefined;
        throw new ApiCallError(messageOf(body) ?? `the service answered ${response.status}`, response.status, error?.code);
      }
      return body as BaseFeeStatsBucket[];
    },

    alerts(signal) {
      return getParsed("/alerts", alertsBodySchema, "GET /alerts", signal);
    },

    costs(chainId, signal) {
      return getParsed(`/networks/${chainId}/costs`, costsSchema, `GET /networks/${chainId}/costs`, signal);
    },

    priceHistory(chainId, fromSeconds, signal) {
      return getParsed(`/networks/${chainId}/priceHistory?from=${fromSeconds}`, priceHistorySchema, `GET /networks/${chainId}/priceHistory`, signal);
    },

    async outlook(chainId, query, signal) {
      const path = `/networks/${chainId}/outlook?${outlookQueryString(query)}`;
      const response = await get(path, signal);
      const body = await readJson(response);
      if (response.status === 422) {
        const notEnough = notEnoughHistoryBodySchema.safeParse(body);
        if (notEnough.success) return { kind: "not-enough-history", held: notEnough.data.held, needed: notEnough.data.needed, message: notEnough.data.message };
      }
      if (!response.ok) {
        const error = body as { code?: string } | undefined;
        throw new ApiCallError(messageOf(body) ?? `the service answered ${response.status}`, response.status, error?.code);
      }
      const parsed = outlookBodySchema.safeParse(body);
      if (!parsed.success) throw new Error(`GET /networks/${chainId}/outlook answered something this page cannot read: ${parsed.error.message}`);
      return { kind: "outlook", body: parsed.data };
    },

    hourlyStats(chainId, signal) {
      return getParsed(`/networks/${chainId}/hourlyStats`, hourlyStatsSchema, `GET /networks/${chainId}/hourlyStats`, signal);
    },

    openEvents(handlers) {
      // EventSource cannot send an Authorization header, so the stream uses the key-in-path form.
      const source = new EventSource(`${baseUrl}/v3/${encodeURIComponent(token)}/events`);
      let open = false;
      source.addEventListener("open", () => {
        open = true;
        handlers.onOpen();
      });
      source.addEventListener(NETWORK_EVENT_NAME, (message) => {
        const event = JSON.parse((message as MessageEvent<string>).data) as NetworkEvent;
        if (event.blocks !== null && performance.getEntriesByName("gasfees:first-data").length === 0) performance.mark("gasfees:first-data");
        handlers.onEvent(event);
      });
      source.addEventListener(ALERT_EVENT_NAME, (message) => {
        // An event this page cannot read is left out: the alerts list, read again after it, still shows the firing.
        const parsed = alertEventSchema.safeParse(readJsonText((message as MessageEvent<string>).data));
        if (parsed.success) handlers.onAlert(parsed.data);
      });
      source.addEventListener("error", () => {
        // The browser would retry by itself, blind to why it failed; the caller checks the token first instead.
        source.close();
        handlers.onError(open);
      });
      return () => source.close();
    },
  };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

function readJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function messageOf(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : undefined;
}

function describeNetworkFailure(error: unknown, baseUrl: string): string {
  if (error instanceof DOMException && error.name === "TimeoutError") return `${baseUrl} sent no answer within ${CHECK_TIMEOUT_MS / 1000} s`;
  return `nothing answers at ${baseUrl}`;
}
