/** Errors of the RPC layer. Messages name the endpoint by its redacted URL and say what to do next. */

/** An endpoint failed: unreachable, an HTTP error, a timeout or a JSON-RPC error. */
export class RpcEndpointError extends Error {
  override name = "RpcEndpointError";
  constructor(
    readonly url: string,
    readonly method: string,
    readonly reason: string,
    /** The JSON-RPC error code, when the endpoint answered with one. */
    readonly rpcCode?: number,
    /** The HTTP status, when the endpoint answered with one other than 2xx. */
    readonly httpStatus?: number,
  ) {
    super(
      `${method} at ${url} failed: ${reason}. The feed fails over to the chain's next endpoint and retries this one later; check the URL and the provider's status if it persists.`,
    );
  }
}

/** An endpoint answered something that is not a valid answer (malformed JSON, wrong shape, absurd values). */
export class MalformedRpcResponseError extends Error {
  override name = "MalformedRpcResponseError";
  constructor(
    readonly url: string,
    readonly method: string,
    readonly problem: string,
  ) {
    super(
      `${method} at ${url} answered garbage: ${problem}. Its answer is ignored; if this persists, the endpoint is not a working JSON-RPC node for this chain.`,
    );
  }
}

/** An endpoint serves another chain than the one it is configured for. */
export class WrongChainError extends Error {
  override name = "WrongChainError";
  constructor(
    readonly url: string,
    readonly expectedChainId: number,
    readonly reportedChainId: number,
  ) {
    super(
      `${url} serves chain ${reportedChainId}, not chain ${expectedChainId}; it is never used for chain ${expectedChainId}. Fix the chain's RPC URL in the settings.`,
    );
  }
}
