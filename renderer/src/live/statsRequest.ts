// What the page asks baseFeeStats for (CONTRACT.md, "Beyond the specification"): a window ending at the newest block
// in a number of buckets, or a span of unix seconds in buckets of a given length.

export type StatsRequest =
  | { readonly kind: "window"; readonly window: string; readonly buckets: number; readonly fee?: "blob" }
  | { readonly kind: "span"; readonly fromSeconds: number; readonly toSeconds: number; readonly bucketSeconds: number };

/** The query string of a request, without the `?`: `window=24h&buckets=288`, `from=…&to=…&bucket=3600`. */
export function statsQueryString(request: StatsRequest): string {
  return request.kind === "window"
    ? `window=${encodeURIComponent(request.window)}&buckets=${request.buckets}${request.fee === "blob" ? "&fee=blob" : ""}`
    : `from=${request.fromSeconds}&to=${request.toSeconds}&bucket=${request.bucketSeconds}`;
}

/** One chain's one request, as a key: equal keys ask the service the same question. */
export function statsRequestKey(chainId: number, request: StatsRequest): string {
  return `${chainId}?${statsQueryString(request)}`;
}
