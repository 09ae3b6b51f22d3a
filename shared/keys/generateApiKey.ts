import { randomBytes } from "node:crypto";

export const API_KEY_BYTES = 16;

/** A new API key: 128 random bits as 32 lower-case hex characters, like the hosted Gas API's keys. */
export function generateApiKey(): string {
  return randomBytes(API_KEY_BYTES).toString("hex");
}
