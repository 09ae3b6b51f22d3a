/** The credentials of an `Authorization: Basic ...` header. `secret` is undefined when the decoded text has no colon. */
export interface BasicCredentials {
  readonly key: string;
  readonly secret: string | undefined;
}

/**
 * missing: no header, or a scheme other than Basic (the caller should answer with the Basic challenge);
 * malformed: Basic, but not base64 of UTF-8 text.
 */
export type BasicParseResult = BasicCredentials | "missing" | "malformed";

/** Far above any real key and secret (128 + 256 characters, base64-encoded), far below a header's limit. */
export const MAX_AUTHORIZATION_CHARS = 1024;

const BASIC = /^[ \t]*basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i;
const SCHEME_ONLY = /^[ \t]*basic[ \t]*$/i;
const utf8 = new TextDecoder("utf-8", { fatal: true });
/** The credentials part alone: what follows `Basic ` in nearly every header, checked without the scheme's regexes. */
const TOKEN = /^[A-Za-z0-9+/]+={0,2}$/;

/** Parses without ever throwing: whatever a client sends, the answer is credentials, "missing" or "malformed". */
export function parseBasicAuthorization(header: string | readonly string[] | undefined): BasicParseResult {
  if (header === undefined) return "missing";
  if (typeof header !== "string") return "malformed";
  // The common form, `Basic <token>` exactly: the general parse below would find the same token.
  if (header.length <= MAX_AUTHORIZATION_CHARS && header.startsWith("Basic ")) {
    const encoded = header.slice(6);
    if (TOKEN.test(encoded)) return credentialsOf(encoded);
  }
  if (header.trim() === "") return "missing";
  if (header.length > MAX_AUTHORIZATION_CHARS) return "malformed";
  if (SCHEME_ONLY.test(header)) return "malformed";
  const match = BASIC.exec(header);
  if (match === null) return /^[ \t]*basic\b/i.test(header) ? "malformed" : "missing";
  return credentialsOf(match[1]!);
}

function credentialsOf(encoded: string): BasicParseResult {
  if (encoded.length % 4 !== 0) return "malformed";
  let text: string;
  try {
    text = utf8.decode(Buffer.from(encoded, "base64"));
  } catch {
    return "malformed";
  }
  const colon = text.indexOf(":");
  if (colon === -1) return { key: text, secret: undefined };
  return { key: text.slice(0, colon), secret: text.slice(colon + 1) };
}
