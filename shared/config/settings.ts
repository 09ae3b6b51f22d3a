import { z } from "zod";

/**
 * The settings file, shared by the desktop app and the headless service: the single source of the
 * settings' types and defaults. Parse with `parseSettings` for messages a person can act on.
 */

const rpcUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      return ["http:", "https:", "ws:", "wss:"].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, "must be an http(s) or ws(s) URL, like https://rpc.example.org");

export const chainIdSchema = z
  .number()
  .int("a chain id is a whole number")
  .positive("a chain id is positive")
  .max(Number.MAX_SAFE_INTEGER, "a chain id is at most 2^53 - 1");

export const chainSettingsSchema = z.strictObject({
  chainId: chainIdSchema,
  name: z.string().trim().min(1).max(64).optional(),
  /** Tried in order; the service fails over to the next and backs off from failing ones. */
  rpcUrls: z.array(rpcUrl).min(1, "a chain needs at least one RPC URL"),
  /** Seconds between blocks, for the polling interval; defaults to viem's value for known chains. */
  blockTimeMs: z.number().int().min(100).max(600_000).optional(),
  /** Blocks the percentiles are computed over; the history endpoint stays 500 blocks. */
  statsWindowBlocks: z.number().int().min(500).max(50_000).default(500),
});

/** API keys travel in URL paths and Basic credentials, so they are URL-safe and contain no colon. */
export const apiKeyValueSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,128}$/, "an API key is 16 to 128 characters of A-Z, a-z, 0-9, _ and -");

export const apiKeySettingsSchema = z.strictObject({
  key: apiKeyValueSchema,
  /** With a secret, Basic must carry it and the key-in-path form is refused. */
  secret: z.string().min(1).max(256).optional(),
  label: z.string().max(64).optional(),
  createdAt: z.iso.datetime().optional(),
});

export const settingsSchema = z.strictObject({
  version: z.literal(1).default(1),
  port: z.number().int().min(0).max(65_535).default(8950),
  /** 127.0.0.1 unless the user opts in to another interface. */
  host: z.string().trim().min(1).default("127.0.0.1"),
  /** Extra Host header names (besides 127.0.0.1, localhost and [::1] with the port) that may call the API. */
  allowedHosts: z.array(z.string().trim().toLowerCase().min(1)).default([]),
  /** Origins allowed by CORS; empty means closed. Never "*". */
  corsOrigins: z.array(z.url().refine((value) => value !== "*", "CORS is never open to every origin")).default([]),
  /** Replaces the default chains when present. */
  chains: z.array(chainSettingsSchema).optional(),
  apiKeys: z.array(apiKeySettingsSchema).default([]),
  rateLimit: z
    .strictObject({
      /** Sustained requests per second per key; 0 turns the limit off. */
      requestsPerSecond: z.number().min(0).default(100),
      burst: z.number().int().min(1).default(200),
    })
    .default({ requestsPerSecond: 100, burst: 200 }),
});

export type Settings = z.infer<typeof settingsSchema>;
export type ChainSettings = z.infer<typeof chainSettingsSchema>;
export type ApiKeySettings = z.infer<typeof apiKeySettingsSchema>;

export class SettingsError extends Error {
  override name = "SettingsError";
}

/** Validates settings, naming each problem by its path (`chains.0.rpcUrls.1: must be an http(s) ...`). */
export function parseSettings(input: unknown, source = "settings"): Settings {
  const result = settingsSchema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(top level)"}: ${issue.message}`);
  throw new SettingsError(`${source} is not valid:\n${problems.join("\n")}`);
}
