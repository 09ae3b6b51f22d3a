import { ALLOWED_METHODS } from "./apiErrors.ts";

/** Headers a browser client may read from an answer (besides the CORS-safelisted ones). */
const EXPOSED_HEADERS =
  "ETag, Last-Modified, Retry-After, X-Block-Number, X-Data-Age-Ms, X-Data-Disputed, X-Stats-Blocks, X-Stats-From-Block, X-Stats-To-Block";
const ALLOWED_REQUEST_HEADERS = "Authorization, If-None-Match";
const PREFLIGHT_MAX_AGE_SECONDS = "600";

/** The answer's CORS headers for an origin not listed (or none): the same object every time, to be read only. */
const NOT_LISTED: Readonly<Record<string, string>> = Object.freeze({ Vary: "Origin" });

export interface Cors {
  /** For every answer but a preflight's. */
  headersFor(origin: string | undefined): Readonly<Record<string, string>>;
  preflightHeadersFor(origin: string | undefined): Readonly<Record<string, string>>;
}

/**
 * CORS for the origins the user listed, never `*`. Returns the headers for an answer to `origin`
 * (none for an origin not listed, so that the browser keeps the answer from the page).
 */
export function createCors(corsOrigins: readonly string[]): Cors {
  const allowed = new Set(corsOrigins.map(originOf).filter((origin) => origin !== "*"));
  const isAllowed = (origin: string | undefined): origin is string => origin !== undefined && allowed.has(origin.toLowerCase());
  return {
    headersFor(origin): Readonly<Record<string, string>> {
      if (!isAllowed(origin)) return NOT_LISTED;
      return { "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": EXPOSED_HEADERS, Vary: "Origin" };
    },
    preflightHeadersFor(origin): Readonly<Record<string, string>> {
      if (!isAllowed(origin)) return NOT_LISTED;
      return {
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Methods": ALLOWED_METHODS,
        "Access-Control-Allow-Headers": ALLOWED_REQUEST_HEADERS,
        "Access-Control-Max-Age": PREFLIGHT_MAX_AGE_SECONDS,
        Vary: "Origin",
      };
    },
  };
}

/** Settings may write an origin as a URL (`http://localhost:5173/`); browsers send `http://localhost:5173`. */
function originOf(value: string): string {
  try {
    const origin = new URL(value).origin;
    return origin === "null" ? value.toLowerCase() : origin.toLowerCase();
  } catch {
    return value.toLowerCase();
  }
}
