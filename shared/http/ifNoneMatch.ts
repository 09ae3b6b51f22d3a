/**
 * Whether an `If-None-Match` header matches `etag` (so the answer is 304): `*`, or a list containing it.
 * If-None-Match uses the weak comparison (RFC 9110 13.1.2), so `W/"x"` matches `"x"`.
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return (tag.startsWith("W/") ? tag.slice(2) : tag) === etag;
  });
}
