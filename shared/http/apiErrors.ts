import type { ServerResponse } from "node:http";
import { OUTLOOK_NEEDED_DAYS } from "../wire/outlook.ts";
import { KEEP_ALIVE_HINT } from "./keepAlive.ts";

/** What a message or a header of an error row may mention about the failed request. */
export interface ApiErrorDetail {
  /** The chain id as the caller wrote it (already percent-decoded). */
  readonly chainId?: string;
  readonly method?: string;
  readonly host?: string;
  readonly retryAfterSeconds?: number;
  /** RATE_LIMITED by a limit other than the key's request rate: what is limited, and to how many. */
  readonly limit?: { readonly what: string; readonly max: number };
  /** NOT_FOUND: the endpoints the server does serve, as a sentence's list (made from its routes). */
  readonly endpoints?: string;
  /** INVALID_QUERY: the query parameter at fault, and what is wrong with it, ending in the values it takes. */
  readonly query?: { readonly parameter: string; readonly problem: string };
  /** NOT_ENOUGH_HISTORY: how much of the chain's hourly summaries is held, as a duration ("9d", "200h"). */
  readonly held?: string;
}

interface ApiErrorRow {
  readonly statusCode: number;
  readonly message: (detail: ApiErrorDetail) => string;
  readonly headers?: (detail: ApiErrorDetail) => Readonly<Record<string, string>>;
  /** Fields the body carries after statusCode, code and message. */
  readonly body?: (detail: ApiErrorDetail) => Readonly<Record<string, string>>;
}

export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
export const BASIC_CHALLENGE = 'Basic realm="gasfees"';

const retryAfter = ({ retryAfterSeconds }: ApiErrorDetail) => ({ "Retry-After": String(retryAfterSeconds ?? 1) });

/**
 * The contract's error table (CONTRACT.md, "Errors"): the one place that maps a code to its status,
 * its message and its extra headers. Messages say what to do next.
 */
export const API_ERRORS = {
  // The message is the hosted Gas API's, word for word, so that its clients recognise it.
  UNSUPPORTED_CHAIN: {
    statusCode: 400,
    message: ({ chainId }) => `'${chainId}' is not a supported chain id.`,
  },
  INVALID_CHAIN_ID: {
    statusCode: 400,
    message: ({ chainId }) => `'${clip(chainId ?? "")}' is not a chain id: write it as a decimal number from 1 to 9007199254740991, such as 1 or 8453.`,
  },
  MISSING_API_KEY: {
    statusCode: 401,
    message: () =>
      "No API key was given: send 'Authorization: Basic base64(<API_KEY>:<API_KEY_SECRET>)' (the secret may be empty), or call /v3/<API_KEY>/networks/... instead.",
    headers: () => ({ "WWW-Authenticate": BASIC_CHALLENGE }),
  },
  INVALID_API_KEY: {
    statusCode: 401,
    message: () => "The API key or its secret is not valid: check both against the keys in the gasfees settings, or create a new key there.",
  },
  SECRET_REQUIRED: {
    statusCode: 401,
    message: () =>
      "This API key requires its secret, so it cannot be used in the path: send 'Authorization: Basic base64(<API_KEY>:<API_KEY_SECRET>)' to /networks/... instead.",
  },
  FORBIDDEN_HOST: {
    statusCode: 403,
    message: ({ host }) =>
      `The Host header ${host === undefined ? "is missing" : `'${clip(host)}' is not allowed`}: call the API as http://127.0.0.1:<port> or http://localhost:<port>, or add the host name to allowedHosts in the settings.`,
  },
  NOT_FOUND: {
    statusCode: 404,
    message: ({ endpoints }) => `No such endpoint: ${endpoints ? `the API serves ${endpoints}; ` : ""}GET /openapi.json describes every endpoint.`,
  },
  METHOD_NOT_ALLOWED: {
    statusCode: 405,
    message: ({ method }) => `The method ${clip(method ?? "")} is not allowed: the API is read-only, use GET (or HEAD, or OPTIONS for CORS).`,
    headers: () => ({ Allow: ALLOWED_METHODS }),
  },
  RATE_LIMITED: {
    statusCode: 429,
    message: ({ retryAfterSeconds, limit }) =>
      limit
        ? `Too many ${limit.what} (at most ${limit.max}): close one, or retry after ${retryAfterSeconds ?? 1} s.`
        : `Too many requests with this API key: retry after ${retryAfterSeconds ?? 1} s, or raise rateLimit in the gasfees settings.`,
    headers: retryAfter,
  },
  NO_DATA: {
    statusCode: 503,
    message: ({ chainId, retryAfterSeconds }) =>
      `Chain ${clip(chainId ?? "")} has no base-fee data yet (still syncing, or every RPC endpoint failing): retry after ${retryAfterSeconds ?? 1} s, and see GET /networks for the state of its endpoints.`,
    headers: retryAfter,
  },
  NO_BASE_FEE: {
    statusCode: 422,
    message: ({ chainId }) =>
      `Chain ${clip(chainId ?? "")} has no EIP-1559 base fee, so there are no base-fee statistics for it: use an EIP-1559 chain, or the chain's own gas price (eth_gasPrice).`,
  },
  NO_BLOB_FEE: {
    statusCode: 422,
    message: ({ chainId }) =>
      `Chain ${clip(chainId ?? "")} has no blob base fee (EIP-4844): its RPC endpoints give no baseFeePerBlobGas in eth_feeHistory, or it is a rollup, with no blob market of its own (it pays Ethereum's blob fee). Ask the base-fee endpoints instead, or follow a chain with blobs (Ethereum, Sepolia).`,
  },
  INVALID_QUERY: {
    statusCode: 400,
    message: ({ query }) =>
      query === undefined
        ? "A query parameter is not valid: GET /openapi.json lists each endpoint's query parameters and their ranges."
        : `The query parameter '${clip(query.parameter)}' ${query.problem}`,
  },
  NOT_ENOUGH_HISTORY: {
    statusCode: 422,
    message: ({ chainId, held }) =>
      `Chain ${clip(chainId ?? "")} has ${held ?? "0h"} of hourly summaries and the outlook needs ${OUTLOOK_NEEDED_DAYS}d: ask again once it holds ${OUTLOOK_NEEDED_DAYS} days (GET /networks/${clip(chainId ?? "")}/hourlyStats shows them).`,
    body: ({ held }) => ({ held: held ?? "0h", needed: `${OUTLOOK_NEEDED_DAYS}d` }),
  },
  // Not in the contract's table: a 500 is a bug, but the caller still deserves an answer in the same shape.
  INTERNAL_ERROR: {
    statusCode: 500,
    message: () => "gasfees failed to answer this request; this is a bug: please report it with the service's log. Retrying may work.",
  },
} as const satisfies Record<string, ApiErrorRow>;

export type ApiErrorCode = keyof typeof API_ERRORS;

/** A failed request, answered with the row of `code`. Thrown by route handlers and answered by the server. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly code: ApiErrorCode;
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The row's own fields of the body (NOT_ENOUGH_HISTORY's held and needed), after the three every error has. */
  readonly extra: Readonly<Record<string, string>>;

  constructor(code: ApiErrorCode, detail: ApiErrorDetail = {}) {
    const row: ApiErrorRow = API_ERRORS[code];
    super(row.message(detail));
    this.code = code;
    this.statusCode = row.statusCode;
    this.headers = row.headers?.(detail) ?? {};
    this.extra = row.body?.(detail) ?? {};
  }

  /** The JSON body, in the hosted service's shape plus the stable code (and the row's own fields, where it has some). */
  toJSON(): { statusCode: number; code: ApiErrorCode; message: string } {
    return { statusCode: this.statusCode, code: this.code, message: this.message, ...this.extra };
  }
}

/**
 * Answers `error` as JSON, with `headers` (those every answer carries: CORS, nosniff, keep-alive) beside its own. With `head`,
 * the body is left out but its length is still announced, as GET would.
 */
export function writeApiError(res: ServerResponse, error: ApiError, head = false, headers: Readonly<Record<string, string>> = NO_HEADERS): void {
  const body = Buffer.from(JSON.stringify(error));
  res.writeHead(error.statusCode, {
    ...headers,
    ...error.headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(body.length),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Keep-Alive": KEEP_ALIVE_HINT,
  });
  res.end(head ? undefined : body);
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Caller-supplied text echoed in a message is cut short, so that a huge input cannot make a huge answer. */
function clip(text: string, maxChars = 64): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}...`;
}
