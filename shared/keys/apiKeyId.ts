import { hash } from "node:crypto";

/**
 * A key's id: the first 12 hex characters of its SHA-256. It names a key (rate limits, logs, the settings page, IPC)
 * without revealing it.
 */
export function apiKeyIdOf(key: string): string {
  return hash("sha256", key, "hex").slice(0, 12);
}
