/**
 * Errors of the RPC layer. Messages name the endpoint by its redacted URL and say what to do next. Their texts may
 * quote what an endpoint sent: the connection redacts its own secrets from them first (UrlRedactor), and each
 * constructor redacts any URL left, whoever made the error.
 */
import type { SuspectReason } from "../feed/chainHead.ts";
import { redactUrlsIn } from "./redactUrl.ts";

/** An endpoint failed: unreachable, an HTTP error, a timeout or a JSON-RPC error. */
export class RpcEndpointError extends Error {
  override name = "RpcEndpointError";
  /** The endpoint's redacted URL. */
  readonly url: string;
  /** What went wrong, as the endpoint or the transport said it (URLs and the endpoint's secrets redacted). */
  readonly reason: string;
  constructor(
    url: string,
    readonly method: string,
    reason: string,
    /** The JSON-RPC error code, when the endpoint answered with one. */
    readonly rpcCode?: number,
    /** The HTTP status, when the endpoint answered with one other than 2xx. */
    readonly httpStatus?: number,
    /** How long the endpoint asked to be left alone (a 429's or 503's Retry-After), in ms, at most an hour. */
    readonly retryAfterMs?: number,
  ) {
    const shownUrl = redactUrlsIn(url);
    const shownReason = redactUrlsIn(reason);
    super(
      `${method} at ${shownUrl} failed: ${shownReason}. The feed fails over to the chain's next endpoint and retries this one later; check the URL and the provider's status if it persists.`,
    );
    this.url = shownUrl;
    this.reason = shownReason;
  }
}

/** An endpoint answered something that is not a valid answer (malformed JSON, wrong shape, absurd values). */
export class MalformedRpcResponseError extends Error {
  override name = "MalformedRpcResponseError";
  /** The endpoint's redacted URL. */
  readonly url: string;
  /** What is wrong with the answer (URLs and the endpoint's secrets redacted). */
  readonly problem: string;
  constructor(
    url: string,
    readonly method: string,
    problem: string,
  ) {
    const shownUrl = redactUrlsIn(url);
    const shownProblem = redactUrlsIn(problem);
    super(
      `${method} at ${shownUrl} answered garbage: ${shownProblem}. Its answer is ignored; if this persists, the endpoint is not a working JSON-RPC node for this chain.`,
    );
    this.url = shownUrl;
    this.problem = shownProblem;
  }
}

/** An endpoint serves another chain than the one it is configured for. */
export class WrongChainError extends Error {
  override name = "WrongChainError";
  /** The endpoint's redacted URL. */
  readonly url: string;
  constructor(
    url: string,
    readonly expectedChainId: number,
    readonly reportedChainId: number,
  ) {
    const shownUrl = redactUrlsIn(url);
    super(
      `${shownUrl} serves chain ${reportedChainId}, not chain ${expectedChainId}; it is never used for chain ${expectedChainId}. Fix the chain's RPC URL in the settings.`,
    );
    this.url = shownUrl;
  }
}

/**
 * An endpoint's answer does not fit what the chain has shown (rpc/feed/chainHead.ts): its head runs ahead of what time
 * allows, lags far behind, or it rewrites blocks deeper than the chain reorganises. It is set aside until it agrees
 * with the chain again.
 */
export class SuspectEndpointError extends Error {
  override name = "SuspectEndpointError";
  /** The endpoint's redacted URL. */
  readonly url: string;
  constructor(
    url: string,
    readonly reason: SuspectReason,
    explanation: string,
  ) {
    const shownUrl = redactUrlsIn(url);
    super(
      `${shownUrl} is set aside: ${redactUrlsIn(explanation)}. The chain is followed through its other endpoints meanwhile, and this one is trusted again once it agrees with the chain.`,
    );
    this.url = shownUrl;
  }
}
