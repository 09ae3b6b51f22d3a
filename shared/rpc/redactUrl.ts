/**
 * Redaction of RPC URLs. Providers put their API keys in the path (`/v3/<key>`), the query (`?apikey=<key>`) or the
 * user info, and an endpoint's own answers may quote its URL, whole or in part (`invalid project id <key>`), so every
 * text that can carry one goes through a redactor before it is logged or shown.
 */

/** Shown in place of a secret. */
export const REDACTED = "***";

/** Secrets shorter than this are left out of free text: they would match ordinary words (they never show in URLs). */
const MIN_SECRET_CHARS = 4;

/**
 * Runs of URL-safe characters long enough to be a provider's key (Infura's 32 hex, Alchemy's 32 base62, UUIDs...).
 * A new expression per use: a global one carries its position (lastIndex) from one use to the next.
 */
const keyLikeRuns = () => /[A-Za-z0-9_-]{16,}/g;

/** Any http(s) or ws(s) URL in free text, up to the first character that cannot be part of it. */
const urlsInText = () => /\b(?:https?|wss?):\/\/[^\s"'<>`]+/gi;

/** A run long enough to be a key, that also has a digit or both cases: `mainnet-archive-node` is not one. */
function looksLikeKey(run: string): boolean {
  return /[0-9]/.test(run) || (/[a-z]/.test(run) && /[A-Z]/.test(run));
}

/**
 * An RPC URL as it may be logged or shown: the scheme, host, port and the path with every key-like run replaced;
 * the user info is dropped and the query hidden whole.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "<invalid url>";
  }
  const path = parsed.pathname.replaceAll(keyLikeRuns(), (run) => (looksLikeKey(run) ? REDACTED : run));
  return `${parsed.protocol}//${parsed.host}${path === "/" ? "" : path}${parsed.search ? `?${REDACTED}` : ""}`;
}

/** Free text with every http(s)/ws(s) URL in it redacted (`redactUrl`), whichever endpoint it belongs to. */
export function redactUrlsIn(text: string): string {
  return text.replaceAll(urlsInText(), (url) => redactUrl(url));
}

/**
 * The redaction for one endpoint, made from its configured URL: each secret part of that URL (user, password, every
 * key-like run of its path, its query and each query value, as written and percent-decoded) is replaced wherever it
 * appears in a text, then every URL left is redacted. So an error that quotes only the key is redacted too.
 */
export class UrlRedactor {
  /** The endpoint's URL as it may be logged or shown. */
  readonly redactedUrl: string;
  /** Longest first, so that a secret containing another is replaced whole. */
  readonly #secrets: readonly string[];

  constructor(url: string) {
    this.redactedUrl = redactUrl(url);
    this.#secrets = secretsOf(url);
  }

  /** Whether the endpoint's URL has parts that must never be shown (a key, a password, a query). */
  get hasSecrets(): boolean {
    return this.#secrets.length > 0;
  }

  /** The text with the endpoint's secrets and every URL redacted. */
  redact(text: string): string {
    return redactUrlsIn(this.hideSecrets(text));
  }

  /** The text with the endpoint's secrets replaced, and nothing else changed. */
  hideSecrets(text: string): string {
    let hidden = text;
    for (const secret of this.#secrets) {
      if (hidden.includes(secret)) hidden = hidden.replaceAll(secret, REDACTED);
    }
    return hidden;
  }

  /** Whether the text quotes one of the endpoint's secrets. */
  quotesSecret(text: string): boolean {
    return this.#secrets.some((secret) => text.includes(secret));
  }
}

function secretsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Never used as an endpoint (the connection refuses it); still, its text is the secret.
    return url.length >= MIN_SECRET_CHARS ? [url] : [];
  }
  const parts = [parsed.username, parsed.password, ...[...parsed.pathname.matchAll(keyLikeRuns())].map(([run]) => run).filter(looksLikeKey)];
  if (parsed.search.length > 1) {
    parts.push(parsed.search.slice(1));
    for (const [name, value] of parsed.searchParams) parts.push(value, name.length >= 16 ? name : "");
  }
  const forms = new Set<string>();
  for (const part of parts) {
    for (const form of [part, safeDecode(part), encodeURIComponent(safeDecode(part))]) {
      if (form.length >= MIN_SECRET_CHARS) forms.add(form);
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
