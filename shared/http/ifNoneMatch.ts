/** The Cache-Control of an answer with a strong ETag: the client may keep it, and asks again (If-None-Match) before using it. */
export const REVALIDATE = "private, max-age=0, must-revalidate";

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
