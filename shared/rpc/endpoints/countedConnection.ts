import type { RpcCall, RpcConnection, RpcOutcome } from "../connection/rpcConnection.ts";

/** JSON-RPC calls made through an endpoint's connection, and how many of them failed (for /metrics). */
export interface RpcCallCounts {
  calls: number;
  failures: number;
}

/**
 * The connection, counting into `counts` every JSON-RPC call it makes (each call of a batch) and every call that
 * failed: an error thrown, or a batch call answered with an error.
 */
export function countedConnection(connection: RpcConnection, counts: RpcCallCounts): RpcConnection {
  return {
    get transport() {
      return connection.transport;
    },
    get redactedUrl() {
      return connection.redactedUrl;
    },
    async request(method: string, params: readonly unknown[]): Promise<unknown> {
      counts.calls++;
      try {
        return await connection.request(method, params);
      } catch (error) {
        counts.failures++;
        throw error;
      }
    },
    async requestBatch(calls: readonly RpcCall[]): Promise<readonly RpcOutcome[]> {
      counts.calls += calls.length;
      try {
        const outcomes = await connection.requestBatch(calls);
        counts.failures += outcomes.filter((outcome) => !outcome.ok).length;
        return outcomes;
      } catch (error) {
        counts.failures += calls.length;
        throw error;
      }
    },
    subscribeNewHeads: (onHead, onError) => connection.subscribeNewHeads(onHead, onError),
    close: () => connection.close(),
  };
}
