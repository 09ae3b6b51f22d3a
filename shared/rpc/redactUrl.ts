/**
 * An RPC URL as it may be logged or shown: RPC providers put their API keys in the path, the query or the
 * user info, so only the scheme, host, port and key-free path segments survive.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "<invalid url>";
  }
  const path = parsed.pathname
    .split("/")
    .map((segment) => (looksLikeSecret(segment) ? "***" : segment))
    .join("/");
  return `${parsed.protocol}//${parsed.host}${path === "/" ? "" : path}${parsed.search ? "?***" : ""}`;
}

function looksLikeSecret(segment: string): boolean {
  return segment.length >= 16 && /[0-9]/.test(segment) && /^[A-Za-z0-9_-]+$/.test(segment);
}
