// How a URL that may hold a secret anywhere in its path or query (an RPC provider's key, a chat webhook's token) is
// shown: its origin only. One place for the RPC endpoints and the webhooks alike.

/** `https://host:port/…`: the scheme, host and port, and `/…` for a path, query or fragment; never the user info. */
export function originShown(url: URL): string {
  const hasMore = url.pathname.length > 1 || url.search !== "" || url.hash !== "";
  return `${url.protocol}//${url.host}${hasMore ? "/…" : ""}`;
}

/** `text` percent-decoded, or as it is when it is not valid percent-encoding. */
export function percentDecodedOrSame(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
