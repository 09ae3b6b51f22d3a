import type { ApiKeyring, AuthResult } from "../keys/apiKeyring.ts";

interface Accepted {
  readonly header: string;
  readonly revision: number;
  readonly result: AuthResult;
}

/**
 * Checks a request's `Authorization` header, remembering per connection the last header the keyring accepted, so that
 * a client repeating its header on a keep-alive connection (what every HTTP client does) is not digested again.
 *
 * Why this is safe:
 * - The remembered header is compared in constant time, so even a connection shared by several clients (a proxy's
 *   pool) tells one client nothing about another's header by timing.
 * - A change of the keyring (a key added, replaced or revoked) voids every remembered answer at once.
 * - The header is held only while its connection is open (keep-alive closes idle ones within seconds), in a WeakMap
 *   keyed by the socket, so nothing outlives the connection; and only headers already accepted are held, so a client
 *   without a key cannot make this hold anything.
 */
export function createConnectionAuth(keyring: ApiKeyring): (connection: object, header: string | readonly string[] | undefined) => AuthResult {
  const accepted = new WeakMap<object, Accepted>();
  return (connection, header) => {
    const remembered = accepted.get(connection);
    if (remembered !== undefined && typeof header === "string" && remembered.revision === keyring.revision && sameText(header, remembered.header)) {
      return remembered.result;
    }
    const result = keyring.verifyAuthorization(header);
    if (result.ok && typeof header === "string") accepted.set(connection, { header, revision: keyring.revision, result });
    else accepted.delete(connection);
    return result;
  };
}

/**
 * Equality of two texts in time that depends only on their lengths (which a Basic header's shape tells anyway).
 * crypto.timingSafeEqual would need both as Buffers, one made on every request, which is what this memo saves.
 */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}
