import { hash, timingSafeEqual } from "node:crypto";
import { apiKeyValueSchema } from "./apiKeyValue.ts";
import { apiKeyIdOf } from "./apiKeyId.ts";
import { MAX_AUTHORIZATION_CHARS, parseBasicAuthorization } from "./parseBasicAuthorization.ts";

export type AuthFailure = "MISSING_API_KEY" | "INVALID_API_KEY" | "SECRET_REQUIRED";

/**
 * ok: `keyId` names the key without revealing it (a digest prefix), for rate limiting and logs.
 * Otherwise the code of the contract's error table to answer with.
 */
export type AuthResult = { readonly ok: true; readonly keyId: string } | { readonly ok: false; readonly code: AuthFailure };

export class InvalidApiKeyError extends Error {
  override name = "InvalidApiKeyError";
}

interface KeyRecord {
  readonly keyDigest: Buffer;
  /** Undefined for a key that does not require a secret. */
  readonly secretDigest: Buffer | undefined;
  readonly keyId: string;
  /** The answer for this key, made once. */
  readonly accepted: AuthResult;
  /** The digests of the `Authorization` headers clients send for this key, as written by any HTTP client. */
  readonly canonicalHeaders: readonly Buffer[];
}

const basicHeaderOf = (credentials: string): string => `Basic ${Buffer.from(credentials, "utf8").toString("base64")}`;

const REFUSED = {
  MISSING_API_KEY: Object.freeze({ ok: false, code: "MISSING_API_KEY" }),
  INVALID_API_KEY: Object.freeze({ ok: false, code: "INVALID_API_KEY" }),
  SECRET_REQUIRED: Object.freeze({ ok: false, code: "SECRET_REQUIRED" }),
} as const satisfies Record<AuthFailure, AuthResult>;

// crypto.hash (Node 20.12+, so every supported Node and Electron) digests in one call without a Hash object. Its
// "binary" (latin1) output, one char per byte, copied into a pooled Buffer gives the same 32 bytes as its "buffer"
// output for about a third of the time (no new ArrayBuffer for the GC to finalise).
const digest = (text: string): Buffer => Buffer.from(hash("sha256", text, "binary"), "binary");
/**
 * The digest of the empty secret: compared against when no key matched, so that a wrong key costs the same time as
 * a wrong secret. It is also the presented secret's digest when the caller sent none (which the caller knows anyway).
 */
const NO_SECRET_DIGEST = digest("");

/**
 * The API keys that may call the API, several at once, each revocable. Keys and secrets are held only as
 * SHA-256 digests and compared in constant time against every key held, so that neither the timing nor
 * the memory of the process tells which keys exist. Nothing here logs.
 *
 * A key without a secret accepts an empty or absent secret (`base64(key:)`, `base64(key)`) and the path
 * form; a non-empty secret sent with it is refused as INVALID_API_KEY rather than ignored, since a caller
 * sending a secret believes it is checked. A key with a secret accepts only Basic with that secret.
 */
export class ApiKeyring {
  readonly #records = new Map<string, KeyRecord>();
  /**
   * The digests of the exact headers that clients send for each key (`Basic ` and the base64 of `key:`, `key` or
   * `key:secret`): such a header is checked with one digest, without decoding it. Any other form of a valid header
   * (another case, spaces) is still accepted through the full parse.
   */
  #canonicalHeaders: ReadonlyArray<{ readonly digest: Buffer; readonly record: KeyRecord }> = [];
  #revision = 0;
  readonly #listeners = new Set<() => void>();

  constructor(keys: Iterable<{ readonly key: string; readonly secret?: string | undefined }> = []) {
    for (const { key, secret } of keys) this.add(key, secret);
  }

  get size(): number {
    return this.#records.size;
  }

  /** Changes whenever a key is added, replaced or removed: an answer remembered under an older revision is stale. */
  get revision(): number {
    return this.#revision;
  }

  /** Adds a key (or replaces its secret). A session token of the dashboard is added as a key without secret. */
  add(key: string, secret?: string): void {
    if (!apiKeyValueSchema.safeParse(key).success) {
      throw new InvalidApiKeyError("an API key is 16 to 128 characters of A-Z, a-z, 0-9, _ and - (generate one with generateApiKey())");
    }
    if (secret !== undefined && secret.length === 0) {
      throw new InvalidApiKeyError("an API key secret is not empty: leave it out for a key without a secret");
    }
    const keyDigest = digest(key);
    const keyId = apiKeyIdOf(key);
    const accepted: AuthResult = Object.freeze({ ok: true, keyId });
    const canonicalHeaders = (secret === undefined ? [`${key}:`, key] : [`${key}:${secret}`]).map((credentials) => digest(basicHeaderOf(credentials)));
    this.#records.set(keyDigest.toString("hex"), {
      keyDigest,
      secretDigest: secret === undefined ? undefined : digest(secret),
      keyId,
      accepted,
      canonicalHeaders,
    });
    this.#keysChanged();
  }

  /** Revokes a key at once: requests already authenticated finish, the next ones are refused. */
  remove(key: string): boolean {
    const removed = this.#records.delete(digest(key).toString("hex"));
    this.#keysChanged();
    return removed;
  }

  has(key: string): boolean {
    return this.#records.has(digest(key).toString("hex"));
  }

  /** Whether a key with this keyId (as an accepted AuthResult names it) is still held. */
  hasKeyId(keyId: string): boolean {
    for (const record of this.#records.values()) if (record.keyId === keyId) return true;
    return false;
  }

  /** Calls `listener` after every change of the keys (added, replaced, revoked); returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Checks an `Authorization` header (Basic). Never throws, whatever the header holds. */
  verifyAuthorization(header: string | readonly string[] | undefined): AuthResult {
    if (typeof header === "string" && header.length <= MAX_AUTHORIZATION_CHARS && header.startsWith("Basic ")) {
      const presented = digest(header);
      let found: KeyRecord | undefined;
      for (const canonical of this.#canonicalHeaders) {
        if (timingSafeEqual(presented, canonical.digest) && found === undefined) found = canonical.record;
      }
      if (found !== undefined) return found.accepted;
    }
    const parsed = parseBasicAuthorization(header);
    if (parsed === "missing") return REFUSED.MISSING_API_KEY;
    if (parsed === "malformed") return REFUSED.INVALID_API_KEY;
    if (parsed.key === "") return REFUSED.INVALID_API_KEY;
    const record = this.#find(parsed.key);
    const secret = parsed.secret ?? "";
    const expected = record?.secretDigest ?? NO_SECRET_DIGEST;
    // Whether a secret was sent is the caller's own choice, so digesting only a non-empty one tells nothing about
    // the keys held: the work still depends only on the input, and the comparison is still made in every case.
    const presented = secret === "" ? NO_SECRET_DIGEST : digest(secret);
    const secretMatches = timingSafeEqual(presented, expected);
    if (record === undefined || !secretMatches) return REFUSED.INVALID_API_KEY;
    return record.accepted;
  }

  /** Checks a key given in the path (`/v3/{apiKey}/...`): only keys without a secret may be used so. */
  verifyPathKey(key: string): AuthResult {
    const record = this.#find(key);
    if (record === undefined) return REFUSED.INVALID_API_KEY;
    if (record.secretDigest !== undefined) return REFUSED.SECRET_REQUIRED;
    return record.accepted;
  }

  #keysChanged(): void {
    this.#revision++;
    this.#canonicalHeaders = [...this.#records.values()].flatMap((record) => record.canonicalHeaders.map((digest) => ({ digest, record })));
    for (const listener of this.#listeners) listener();
  }

  /** Compares against every key held, without stopping at a match. */
  #find(key: string): KeyRecord | undefined {
    const presented = digest(key);
    let found: KeyRecord | undefined;
    for (const record of this.#records.values()) {
      if (timingSafeEqual(presented, record.keyDigest) && found === undefined) found = record;
    }
    return found;
  }
}
