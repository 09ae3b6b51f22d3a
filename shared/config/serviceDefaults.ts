/** A rate limit per API key: a token bucket. */
export interface RateLimit {
  /** Sustained requests per second per key; 0 turns the limit off. */
  readonly requestsPerSecond: number;
  /** Requests a key may make at once after being idle. */
  readonly burst: number;
}

/** Where the API listens unless told otherwise (the contract's base URL), and the settings' defaults. */
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 8950;
/** Per API key: 100 requests per second sustained, 200 at once after a pause. */
export const DEFAULT_RATE_LIMIT: RateLimit = Object.freeze({ requestsPerSecond: 100, burst: 200 });
