/**
 * Redaction of RPC URLs. Providers put their API keys in the path (`/v3/<key>`, `/<key>`, `/rpc/<name>/<key>`), the
 * query (`?apikey=<key>`) or the user info, and an endpoint's own answers may quote its URL, whole or in part
 * (`invalid project id <key>`), so every text that can carry one goes through a redactor before it is logged or
 * shown. A secret may be of any shape (short, plain lower case), so no part of a path is guessed to be safe: a URL is
 * shown as its origin only, as a webhook's is, with the label its user gave the endpoint (settings' `rpcLabels`).
 */
import { originShown, percentDecodedOrSame } from "../../core/text/shownUrl.ts";

/** Shown in place of a secret. */
export const REDACTED = "***";

/** Secrets shorter than this are left out of free text: they would match ordinary words (they never show in URLs). */
const MIN_SECRET_CHARS = 4;

/**
 * Runs of URL-safe characters long enough to be a provider's key (Infura's 32 hex, Alchemy's 32 base62, UUIDs...).
 * A new expression per use: a global one carries its position (lastIndex) from one use to the next.
 */
const keyLikeRuns = () => /[A-Za-z0-9_-]{16,}/g;

/** A run long enough to be a key, that also has a digit or both cases: `mainnet-archive-node` is not one. */
function looksLikeKey(run: string): boolean {
  return /[0-9]/.test(run) || (/[a-z]/.test(run) && /[A-Z]/.test(run));
}

/** Any http(s) or ws(s) URL in free text, up to the first character that cannot be part of it. */
const urlsInText = () => /\b(?:https?|wss?):\/\/[^\s"'<>`]+/gi;

/**
 * An RPC URL as it may be logged or shown: its scheme, host and port, and `/…` when it has a path or query (which may
 * hold a key): `https://mainnet.infura.io/…`. Never its user info.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "<invalid url>";
  }
  return originShown(parsed);
}

/**
 * How each of a chain's endpoints is shown: its origin (redactUrl), then its user's label in brackets when it has one
 * (`https://mainnet.infura.io/… (work key)`); endpoints that would still show alike get their place in the list
 * (` #2`), so that /networks, /metrics and the log tell them apart.
 */
export function endpointNamesOf(urls: readonly string[], labels: Readonly<Record<string, string>> = {}): string[] {
  const names = urls.map((url) => {
    const label = Object.hasOwn(labels, url) ? labels[url] : undefined;
    return label === undefined ? redactUrl(url) : `${redactUrl(url)} (${label})`;
  });
  return names.map((name, index) => (names.indexOf(name) !== names.lastIndexOf(name) ? `${name} #${index + 1}` : name));
}

/** Free text with every http(s)/ws(s) URL in it redacted (`redactUrl`), whichever endpoint it belongs to. */
export function redactUrlsIn(text: string): string {
  // Punctuation that ends a sentence after a URL stays, as the path it might have belonged to goes.
  return text.replaceAll(urlsInText(), (url) => {
    const trailing = /[).,;:!?\]}]+$/.exec(url)?.[0] ?? "";
    return `${redactUrl(url.slice(0, url.length - trailing.length))}${trailing}`;
  });
}

/**
 * The redaction for one endpoint, made from its configured URL: each secret part of that URL (user, password, every
 * key-like run of its path, its query and each query value, as written and percent-decoded) is replaced wherever it
 * appears in a text, then every URL left is redacted. So an error that quotes only the key is redacted too.
 */
export class UrlRedactor {
  /** The endpoint's URL as it may be logged or shown. */
  readonly redactedUrl: string;
  /**
   * What free text (an error, a status line) may not show: every part of the URL but its origin. Longest first, so
   * that a secret containing another is replaced whole.
   */
  readonly #textSecrets: readonly string[];
  /**
   * What an answer's data may not carry: the key-like parts alone (user, password, key-like path runs, the query). A
   * path segment such as `/base` is hidden in an error, but never in a result, where it is part of `baseFeePerGas`.
   */
  readonly #resultSecrets: readonly string[];

  /** `shownAs`: the endpoint's name among its chain's (endpointNamesOf); its origin alone by default. */
  constructor(url: string, shownAs?: string) {
    this.redactedUrl = shownAs ?? redactUrl(url);
    this.#textSecrets = secretsOf(url, "every path segment");
    this.#resultSecrets = secretsOf(url, "key-like path runs");
  }

  /** Whether the endpoint's URL has key-like parts that its answers' data must never carry (a key, a password, a query). */
  get hasSecrets(): boolean {
    return this.#resultSecrets.length > 0;
  }

  /** Free text with every part of the endpoint's URL but its origin, and every URL, redacted. */
  redact(text: string): string {
    return redactUrlsIn(replaceAll(text, this.#textSecrets));
  }

  /** An answer's string with the endpoint's key-like secrets replaced, and nothing else changed. */
  hideSecrets(text: string): string {
    return replaceAll(text, this.#resultSecrets);
  }

  /** Whether an answer's string quotes one of the endpoint's key-like secrets. */
  quotesSecret(text: string): boolean {
    return this.#resultSecrets.some((secret) => text.includes(secret));
  }
}

function replaceAll(text: string, secrets: readonly string[]): string {
  let hidden = text;
  for (const secret of secrets) {
    if (hidden.includes(secret)) hidden = hidden.replaceAll(secret, REDACTED);
  }
  return hidden;
}

function secretsOf(url: string, pathParts: "every path segment" | "key-like path runs"): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Never used as an endpoint (the connection refuses it); still, its text is the secret.
    return url.length >= MIN_SECRET_CHARS ? [url] : [];
  }
  // In text, every part of the path: a key may be any word (`/swordfish`), and its neighbours may name the account.
  const path =
    pathParts === "every path segment"
      ? [parsed.pathname.slice(1), ...parsed.pathname.split("/")]
      : [...parsed.pathname.matchAll(keyLikeRuns())].map(([run]) => run).filter(looksLikeKey);
  const parts = [parsed.username, parsed.password, ...path];
  if (parsed.search.length > 1) {
    parts.push(parsed.search.slice(1));
    for (const [name, value] of parsed.searchParams) parts.push(value, name.length >= 16 ? name : "");
  }
  const forms = new Set<string>();
  for (const part of parts) {
    for (const form of [part, percentDecodedOrSame(part), encodeURIComponent(percentDecodedOrSame(part))]) {
      if (form.length >= MIN_SECRET_CHARS) forms.add(form);
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}
