import { createHash, timingSafeEqual } from "node:crypto";
import { apiKeyValueSchema } from "../config/settings.ts";
import { parseBasicAuthorization } from "./parseBasicAuthorization.ts";

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
}

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();
/** Compared against when no key matched, so that a wrong key costs the same time as a wrong secret. */
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

  constructor(keys: Iterable<{ readonly key: string; readonly secret?: string | undefined }> = []) {
    for (const { key, secret } of keys) this.add(key, secret);
  }

  get size(): number {
    return this.#records.size;
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
    const keyId = keyDigest.toString("hex").slice(0, 12);
    this.#records.set(keyDigest.toString("hex"), { keyDigest, secretDigest: secret === undefined ? undefined : digest(secret), keyId });
  }

  /** Revokes a key at once: requests already authenticated finish, the next ones are refused. */
  remove(key: string): boolean {
    return this.#records.delete(digest(key).toString("hex"));
  }

  has(key: string): boolean {
    return this.#records.has(digest(key).toString("hex"));
  }

  /** Checks an `Authorization` header (Basic). Never throws, whatever the header holds. */
  verifyAuthorization(header: string | readonly string[] | undefined): AuthResult {
    const parsed = parseBasicAuthorization(header);
    if (parsed === "missing") return { ok: false, code: "MISSING_API_KEY" };
    if (parsed === "malformed") return { ok: false, code: "INVALID_API_KEY" };
    if (parsed.key === "") return { ok: false, code: "INVALID_API_KEY" };
    const record = this.#find(parsed.key);
    const secret = parsed.secret ?? "";
    const expected = record?.secretDigest ?? NO_SECRET_DIGEST;
    const secretMatches = timingSafeEqual(digest(secret), expected);
    if (record === undefined || !secretMatches) return { ok: false, code: "INVALID_API_KEY" };
    return { ok: true, keyId: record.keyId };
  }

  /** Checks a key given in the path (`/v3/{apiKey}/...`): only keys without a secret may be used so. */
  verifyPathKey(key: string): AuthResult {
    const record = this.#find(key);
    if (record === undefined) return { ok: false, code: "INVALID_API_KEY" };
    if (record.secretDigest !== undefined) return { ok: false, code: "SECRET_REQUIRED" };
    return { ok: true, keyId: record.keyId };
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
