// A viem client for reading contracts through a chain's own RPC endpoints, over this project's bounded connections
// (rpcConnection.ts: answers capped, secrets redacted, timeouts), trying the endpoints in order.
import { createPublicClient, custom, type PublicClient } from "viem";
import { checkChainId } from "./checkChainId.ts";
import { RpcEndpointError } from "./errors.ts";
import { createRpcConnection, type RpcCall, type RpcConnection, type RpcOutcome } from "./rpcConnection.ts";

/** Contract reads on one chain: a viem client and one JSON-RPC batch, each call counted. */
export interface ContractClient {
  readonly chainId: number;
  readonly viem: PublicClient;
  /** Several calls in one request to the first endpoint that answers it. */
  batch(calls: readonly RpcCall[]): Promise<readonly RpcOutcome[]>;
  /**
   * Several calls in one request to the first endpoint not in `except` that answers it, and which endpoint that was (its
   * URL as configured): what a reader needs to say where a value came from, or to have it confirmed elsewhere.
   * Undefined when the chain has no endpoint beside those in `except`; throws when each of the others fails.
   */
  batchFrom(
    calls: readonly RpcCall[],
    except?: readonly string[],
  ): Promise<{ readonly endpoint: string; readonly outcomes: readonly RpcOutcome[] } | undefined>;
  /** JSON-RPC calls sent so far (a batch counts each of its calls): for the benchmarks' call budget. */
  readonly callCount: number;
  close(): void;
}

/**
 * Reads through `urls` (the chain's endpoints), each used only once its `eth_chainId` is `chainId`; a failing endpoint
 * passes the call to the next one, and the last one's error is thrown. Every request ends within `timeoutMs`.
 */
export function createContractClient(chainId: number, urls: readonly string[], timeoutMs: number): ContractClient {
  const connections = urls.map((url) => ({ url, connection: createRpcConnection(url, { timeoutMs }), checked: false }));
  let calls = 0;
  const tryEach = async <T>(send: (connection: RpcConnection) => Promise<T>, entries = connections): Promise<T> => {
    let lastError: unknown = new Error(`chain ${chainId} has no RPC endpoint`);
    for (const entry of entries) {
      try {
        if (!entry.checked) {
          calls += 1;
          await checkChainId(entry.connection, chainId);
          entry.checked = true;
        }
        return await send(entry.connection);
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  };
  const viem = createPublicClient({
    transport: custom(
      {
        request: ({ method, params }: { method: string; params?: unknown }) =>
          tryEach((connection) => {
            calls += 1;
            return connection.request(method, Array.isArray(params) ? params : []);
          }),
      },
      { retryCount: 0 },
    ),
  });
  return {
    chainId,
    viem,
    batch: (batchCalls) =>
      tryEach((connection) => {
        calls += batchCalls.length;
        return connection.requestBatch(batchCalls);
      }),
    batchFrom: async (batchCalls, except = []) => {
      const others = connections.filter((entry) => !except.includes(entry.url));
      if (others.length === 0) return undefined;
      let answered = "";
      const outcomes = await tryEach((connection) => {
        calls += batchCalls.length;
        answered = others.find((entry) => entry.connection === connection)!.url;
        return batchCalls.length === 1 ? single(connection, batchCalls[0]!) : connection.requestBatch(batchCalls);
      }, others);
      return { endpoint: answered, outcomes };
    },
    get callCount() {
      return calls;
    },
    close: () => {
      for (const { connection } of connections) connection.close();
    },
  };
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
