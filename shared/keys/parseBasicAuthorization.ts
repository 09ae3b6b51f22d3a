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

/** Parses without ever throwing: whatever a client sends, the answer is credentials, "missing" or "malformed". */
export function parseBasicAuthorization(header: string | readonly string[] | undefined): BasicParseResult {
  if (header === undefined) return "missing";
  if (typeof header !== "string") return "malformed";
  if (header.trim() === "") return "missing";
  if (header.length > MAX_AUTHORIZATION_CHARS) return "malformed";
  if (SCHEME_ONLY.test(header)) return "malformed";
  const match = BASIC.exec(header);
  if (match === null) return /^[ \t]*basic\b/i.test(header) ? "malformed" : "missing";
  const encoded = match[1]!;
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
