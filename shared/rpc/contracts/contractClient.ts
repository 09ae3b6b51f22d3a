// A viem client for reading contracts through a chain's own RPC endpoints, over this project's bounded connections
// (rpcConnection.ts: answers capped, secrets redacted, timeouts), as a user of the chain's endpoint layer.
import { createPublicClient, custom, type PublicClient } from "viem";
import { RpcEndpointError } from "../connection/errors.ts";
import { type ChainEndpoint, ChainEndpoints } from "../endpoints/chainEndpoints.ts";
import { LaneBackoff } from "../endpoints/laneBackoff.ts";
import type { RpcCall, RpcConnection, RpcOutcome } from "../connection/rpcConnection.ts";

/** Contract reads on one chain: a viem client and one JSON-RPC batch, each call counted. */
export interface ContractClient {
  readonly chainId: number;
  readonly viem: PublicClient;
  /** Several calls in one request to the first trusted endpoint that answers it. */
  batch(calls: readonly RpcCall[]): Promise<readonly RpcOutcome[]>;
  /** JSON-RPC calls sent so far (a batch counts each of its calls): for the benchmarks' call budget. */
  readonly callCount: number;
  close(): void;
  /**
   * Several calls in one request to the first trusted endpoint not in `except` (redacted URLs) that answers it, and
   * which endpoint that was: what a reader needs to say where a value came from, or to have it confirmed elsewhere.
   * Undefined when no trusted endpoint is left beside those in `except`; throws when each of the others fails.
   */
  batchFrom(
    calls: readonly RpcCall[],
    except?: readonly string[],
  ): Promise<{ readonly endpoint: string; readonly outcomes: readonly RpcOutcome[] } | undefined>;
  /** The same calls through one named endpoint (its redacted URL) alone, if the layer trusts it now. */
  batchAt(endpoint: string, calls: readonly RpcCall[]): Promise<readonly RpcOutcome[]>;
  /** The endpoints the layer trusts now, in order (redacted URLs): none failing, none set aside. */
  trustedEndpoints(): readonly string[];
  /** An endpoint's answer was found false against the others': set aside for every reader, with how it differed. */
  setAside(endpoint: string, error: Error): void;
  /** The endpoints disagree about `subject` with no majority (`how`), or no longer (undefined): the chain is disputed meanwhile. */
  dispute(subject: string, how: string | undefined): void;
  /** The endpoint (its redacted URL) that answered the last call made through `viem` or `batch`; undefined before any. */
  readonly lastSource: string | undefined;
}

/** No endpoint of the chain may be read through now: each is failing, set aside or waiting. */
export class NoTrustedEndpointError extends Error {
  override name = "NoTrustedEndpointError";
}

/**
 * Contract reads through the chain's endpoint layer: only endpoints it trusts (an endpoint the feed set aside as
 * suspect, or found lying, supplies no price and no L1 fee), each once the layer's chain-id check passed through the
 * reads' own lane (asked again after it reconnects). A failing endpoint passes the call to the next one and is paced
 * by the one backoff policy; a Retry-After is the endpoint's (every reader waits it out).
 */
export function contractClientOf(
  layer: ChainEndpoints,
  timeoutMs: number,
  options: { readonly ownsLayer?: boolean; readonly now?: () => number } = {},
): ContractClient {
  const now = options.now ?? Date.now;
  const paces = new Map<ChainEndpoint, LaneBackoff>();
  const paceOf = (endpoint: ChainEndpoint) => {
    let pace = paces.get(endpoint);
    if (pace === undefined) paces.set(endpoint, (pace = new LaneBackoff(layer.backoff)));
    return pace;
  };
  const through = async <T>(endpoint: ChainEndpoint, send: (connection: RpcConnection) => Promise<T>): Promise<T> => {
    try {
      await layer.checkChainId(endpoint, "contracts", { timeoutMs });
      const result = await send(layer.connection(endpoint, "contracts", timeoutMs));
      paceOf(endpoint).served();
      return result;
    } catch (error) {
      // A JSON-RPC error answer (a revert, an unknown method) is an answer, not a failure of the endpoint.
      const answered = error instanceof RpcEndpointError && error.rpcCode !== undefined && error.httpStatus === undefined;
      if (!answered && layer.askedToWait(endpoint, error, "contracts") === undefined) {
        paceOf(endpoint).failed(now());
        layer.reconnect(endpoint, "contracts");
      }
      throw error;
    }
  };
  let lastSource: string | undefined;
  const tryEach = async <T>(
    send: (connection: RpcConnection) => Promise<T>,
    except: readonly string[] = [],
  ): Promise<{ endpoint: ChainEndpoint; result: T }> => {
    const ready = layer.trusted().filter((endpoint) => !except.includes(endpoint.redactedUrl) && paceOf(endpoint).waitMs(now()) === 0);
    if (ready.length === 0) throw noneTrusted(layer);
    let lastError: unknown;
    for (const endpoint of ready) {
      try {
        const result = await through(endpoint, send);
        lastSource = endpoint.redactedUrl;
        return { endpoint, result };
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  };
  const viem = createPublicClient({
    transport: custom(
      {
        request: async ({ method, params }: { method: string; params?: unknown }) =>
          (await tryEach((connection) => connection.request(method, Array.isArray(params) ? params : []))).result,
      },
      { retryCount: 0 },
    ),
  });
  const named = (url: string) => layer.endpoints.find((endpoint) => endpoint.redactedUrl === url);
  return {
    chainId: layer.chainId,
    viem,
    batch: async (calls) => (await tryEach((connection) => connection.requestBatch(calls))).result,
    batchFrom: async (calls, except = []) => {
      if (!layer.trusted().some((endpoint) => !except.includes(endpoint.redactedUrl))) return undefined;
      const { endpoint, result } = await tryEach((connection) => (calls.length === 1 ? single(connection, calls[0]!) : connection.requestBatch(calls)), except);
      return { endpoint: endpoint.redactedUrl, outcomes: result };
    },
    batchAt: async (url, calls) => {
      const endpoint = named(url);
      if (endpoint === undefined || !endpoint.trusted) throw new NoTrustedEndpointError(`${url} is not trusted now on chain ${layer.chainId}`);
      return through(endpoint, (connection) => connection.requestBatch(calls));
    },
    trustedEndpoints: () => layer.trusted().map((endpoint) => endpoint.redactedUrl),
    setAside: (url, error) => {
      const endpoint = named(url);
      if (endpoint !== undefined) layer.setAside(endpoint, "disagrees", error, { by: "contracts" });
    },
    dispute: (subject, how) => (how === undefined ? layer.settle(subject) : layer.dispute(subject, how)),
    get lastSource() {
      return lastSource;
    },
    get callCount() {
      return layer.callCounts("contracts").reduce((sum, count) => sum + count.calls, 0);
    },
    close: () => {
      for (const endpoint of layer.endpoints) layer.reconnect(endpoint, "contracts");
      if (options.ownsLayer === true) layer.close();
    },
  };
}

/**
 * Reads through `urls` (the chain's endpoints) with a layer of its own (tools and tests; the service gives the
 * contract reads the chain's shared layer through `contractClientOf`). Every request ends within `timeoutMs`.
 */
export function createContractClient(chainId: number, urls: readonly string[], timeoutMs: number): ContractClient {
  return contractClientOf(new ChainEndpoints(chainId, urls, { timeoutMs }), timeoutMs, { ownsLayer: true });
}

function noneTrusted(layer: ChainEndpoints): NoTrustedEndpointError {
  const states = layer.endpoints.map(
    (endpoint) => `${endpoint.redactedUrl} ${endpoint.setAsideFor === undefined ? endpoint.health.state : `set aside (${endpoint.setAsideFor})`}`,
  );
  return new NoTrustedEndpointError(`no RPC endpoint of chain ${layer.chainId} is trusted now (${states.join(", ")})`);
}

/**
 * One call sent alone (not as a batch of one, which some endpoints refuse): the endpoint's JSON-RPC error is its
 * outcome, as in a batch; a failure of the endpoint itself throws.
 */
async function single(connection: RpcConnection, call: RpcCall): Promise<readonly RpcOutcome[]> {
  try {
    return [{ ok: true, result: await connection.request(call.method, [...call.params]) }];
  } catch (error) {
    // The endpoint's own JSON-RPC error (a revert): an answer, as a batch gives it; not a transport's or an HTTP error.
    if (error instanceof RpcEndpointError && error.rpcCode !== undefined && error.httpStatus === undefined) return [{ ok: false, error }];
    throw error;
  }
}
