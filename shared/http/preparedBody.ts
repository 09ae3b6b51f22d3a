import { createHash } from "node:crypto";

/** A response body serialised once, with its strong ETag. */
export interface PreparedBody {
  readonly body: Buffer;
  /** A strong entity tag, quoted: `"<base64url of the body's SHA-256, 128 bits>"`. */
  readonly etag: string;
}

export function preparedJson(value: unknown): PreparedBody {
  const body = Buffer.from(JSON.stringify(value), "utf8");
  return Object.freeze({ body, etag: strongEtagOf(body) });
}

export function strongEtagOf(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
}
