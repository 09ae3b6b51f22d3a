/**
 * Redaction of RPC URLs. Providers put their API keys in the path (`/v3/<key>`, `/<key>`, `/rpc/<name>/<key>`), the
 * query (`?apikey=<key>`) or the user info, and an endpoint's own answers may quote its URL, whole or in part
 * (`invalid project id <key>`), so every text that can carry one goes through a redactor before it is logged or
 * shown. A secret may be of any shape (short, plain lower case), so no part of a path is guessed to be safe: a URL is
 * shown as its origin only, as a webhook's is, with the label its user gave the endpoint (settings' `rpcLabels`).
 */
import { originShown, percentDecodedOrSame } from "../core/text/shownUrl.ts";

/** Shown in place of a secret. */
export const REDACTED = "***";

/** Secrets shorter than this are left out of free text: they would match ordinary words (they never show in URLs). */
const MIN_SECRET_CHARS = 4;

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
  /** Longest first, so that a secret containing another is replaced whole. */
  readonly #secrets: readonly string[];

  /** `shownAs`: the endpoint's name among its chain's (endpointNamesOf); its origin alone by default. */
  constructor(url: string, shownAs?: string) {
    this.redactedUrl = shownAs ?? redactUrl(url);
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
  // Every part of the path: a key may be any word (`/swordfish`), and its neighbours may name the account.
  const parts = [parsed.username, parsed.password, parsed.pathname.slice(1), ...parsed.pathname.split("/")];
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
