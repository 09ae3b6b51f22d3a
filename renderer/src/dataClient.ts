// The one way the dashboard talks to the service: typed calls over fetch and Server-Sent Events.
import type { NetworkEvent } from "../../shared/wire/networkEvent.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import type { Connection } from "./connection.ts";

export type { BlockRun, NetworkEvent } from "../../shared/wire/networkEvent.ts";
export type { EndpointStatus, NetworkStatus } from "../../shared/wire/networkStatus.ts";

/** A refused or failed call, with the contract's error code when the service gave one. */
export class ApiCallError extends Error {
  override name = "ApiCallError";
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** live: events flow; connecting: (re)connecting by itself. */
export type StreamState = "connecting" | "live";

export interface DataClient {
  readonly baseUrl: string;
  readonly token: string;
  /** Every configured chain with its state (`GET /networks`). */
  networks(signal?: AbortSignal): Promise<NetworkStatus[]>;
  /** The chain's full state at once, then every change; reconnects by itself. Returns the function that stops it. */
  watchNetwork(chainId: number, onEvent: (event: NetworkEvent) => void, onState: (state: StreamState) => void): () => void;
}

const EVENT_NAME = "network";
const MAX_RETRY_MS = 10_000;

export function createDataClient({ baseUrl, token }: Connection): DataClient {
  const authorization = `Basic ${btoa(`${token}:`)}`;

  async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization }, signal, cache: "no-store" });
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      throw new ApiCallError(`the service answered ${response.status} with something that is not JSON`, response.status, undefined);
    }
    if (!response.ok) {
      const error = body as { code?: string; message?: string } | undefined;
      throw new ApiCallError(error?.message ?? `the service answered ${response.status}`, response.status, error?.code);
    }
    return body as T;
  }

  return {
    baseUrl,
    token,
    networks: (signal) => getJson<NetworkStatus[]>("/networks", signal),
    watchNetwork(chainId, onEvent, onState) {
      // EventSource cannot send an Authorization header, so the stream uses the key-in-path form.
      const url = `${baseUrl}/v3/${encodeURIComponent(token)}/networks/${chainId}/events`;
      let source: EventSource | undefined;
      let retryTimer: number | undefined;
      let retryMs = 500;
      let stopped = false;
      let firstData = true;

      const open = () => {
        onState("connecting");
        const current = new EventSource(url);
        source = current;
        current.addEventListener("open", () => {
          retryMs = 500;
          onState("live");
        });
        current.addEventListener(EVENT_NAME, (message) => {
          const event = JSON.parse((message as MessageEvent<string>).data) as NetworkEvent;
          if (firstData && event.blocks !== null) {
            firstData = false;
            performance.mark("gasfees:first-data");
          }
          onEvent(event);
        });
        current.addEventListener("error", () => {
          if (stopped) return;
          onState("connecting");
          // CONNECTING: the browser retries by itself. CLOSED: it gave up (the service refused the stream, or was
          // gone at the first try), so try again later, backing off.
          if (current.readyState === EventSource.CLOSED) {
            current.close();
            retryTimer = window.setTimeout(open, retryMs);
            retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
          }
        });
      };
      open();
      return () => {
        stopped = true;
        window.clearTimeout(retryTimer);
        source?.close();
      };
    },
  };
}
