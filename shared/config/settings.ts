import { z } from "zod";
import { actionSettingsSchema, currencySchema } from "../wire/actionSettingsSchema.ts";
import { apiKeyValueSchema } from "../keys/apiKeyValue.ts";
import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import { parseDurationSeconds, parseWindowSpec } from "../core/history/duration.ts";
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_RATE_LIMIT } from "./serviceDefaults.ts";

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

/** The longest label a user may give an RPC endpoint (`rpcLabels`). */
export const MAX_RPC_LABEL_CHARS = 40;

export const chainIdSchema = z
  .number()
  .int("a chain id is a whole number")
  .positive("a chain id is positive")
  .max(Number.MAX_SAFE_INTEGER, "a chain id is at most 2^53 - 1");

/** A price feed named by the user: a Chainlink aggregator's address, the chain it is read on, and the token it prices. */
export const priceFeedSettingsSchema = z.strictObject({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a contract address: 0x and 40 hex digits"),
  /** The chain whose endpoints the feed is read through; it must be followed. Default: the chain itself. */
  chainId: chainIdSchema.optional(),
  /** The gas token's symbol, for display ("ETH"); default the chain's native currency's symbol. */
  token: z.string().trim().min(1).max(16).optional(),
  /**
   * The feed's description() as it answers it ("ETH / USD"), checked before the feed is used; without it, any
   * description is taken (and logged). The default feeds are always checked against their token and currency.
   */
  description: z.string().max(128).optional(),
  /** The feed writes a round at least this often; an older round is stale. Default a day. */
  heartbeatSeconds: z
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .optional(),
});

export const chainSettingsSchema = z
  .strictObject({
    chainId: chainIdSchema,
    name: z.string().trim().min(1).max(64).optional(),
    /** Tried in order; the service fails over to the next and backs off from failing ones. */
    rpcUrls: z.array(rpcUrl).min(1, "a chain needs at least one RPC URL"),
    /**
     * A name for an endpoint, by its URL as written in rpcUrls: shown after the URL's origin (`https://host/… (label)`),
     * the only part of an RPC URL ever shown, in /networks, /metrics and the log.
     */
    rpcLabels: z
      .record(
        z.string(),
        z
          .string()
          .trim()
          .min(1, "a label is not empty")
          .max(MAX_RPC_LABEL_CHARS, `a label is at most ${MAX_RPC_LABEL_CHARS} characters`)
          .regex(/^[^\p{Cc}()]+$/u, "a label has no control characters or brackets"),
      )
      .optional(),
    /** Seconds between blocks, for the polling interval; defaults to viem's value for known chains. */
    blockTimeMs: z.number().int().min(100).max(600_000).optional(),
    /**
     * What the percentiles are computed over: a duration ("1h", "24h", "7d") or the newest N blocks ("7200 blocks");
     * default 24h. The history endpoint stays HISTORY_BLOCKS (500) blocks whatever the window.
     */
    statsWindow: z
      .string()
      .trim()
      .refine((text) => parseWindowSpec(text) !== undefined, 'must be a duration like "24h" or "7d", or a count like "7200 blocks"')
      .refine((text) => {
        const window = parseWindowSpec(text);
        return window?.kind !== "blocks" || window.blocks >= HISTORY_BLOCKS;
      }, `a window of blocks holds at least ${HISTORY_BLOCKS} blocks`)
      .optional(),
    /** Older files' window as a count of blocks; `statsWindow` replaces it. */
    statsWindowBlocks: z.number().int().min(HISTORY_BLOCKS).max(10_000_000).optional(),
    /**
     * The gas token's price feed (a Chainlink aggregator), replacing the default one (shared/config/priceFeeds.ts):
     * `{ "address": "0x…", "chainId": 1, "token": "ETH" }` reads it on chain 1 (a followed chain; default this chain),
     * `false` turns prices off for this chain.
     */
    priceFeed: z
      .union([z.literal(false), priceFeedSettingsSchema], {
        error: 'must be false (no price for this chain) or a feed like {"address":"0x…","chainId":1,"token":"ETH"}',
      })
      .optional(),
    /**
     * Whether the chain has a blob market of its own (EIP-4844 blob base fees): `false` for a rollup, whose endpoints'
     * blob fields are no market (its blob endpoints then answer NO_BLOB_FEE, whatever they carry). Default true, false
     * for the rollups among the default chains (OP Mainnet, Base, Arbitrum One, Linea).
     */
    blobMarket: z.boolean({ error: "must be true (the chain has blob fees of its own) or false (a rollup: no blob fees)" }).optional(),
    /** How far back the history is kept: a duration, at least the statistics window; default 7d. */
    historyHorizon: z
      .string()
      .trim()
      .refine((text) => parseDurationSeconds(text) !== undefined, 'must be a duration like "7d" (at most a year)')
      .optional(),
    /** How long hourly summaries are kept (the outlook's memory): a duration, at least the history horizon; default 52w. */
    summaryHorizon: z
      .string()
      .trim()
      .refine((text) => parseDurationSeconds(text) !== undefined, 'must be a duration like "52w" (at most a year)')
      .optional(),
    /** How far before the history horizon a first start backfills hourly summaries: a duration; default 8w. */
    outlookBackfill: z
      .string()
      .trim()
      .refine((text) => parseDurationSeconds(text) !== undefined, 'must be a duration like "8w" (at most a year)')
      .optional(),
  })
  .refine((chain) => Object.keys(chain.rpcLabels ?? {}).every((url) => chain.rpcUrls.includes(url)), {
    message: "each key of rpcLabels is one of the chain's rpcUrls, written the same",
    path: ["rpcLabels"],
  })
  .refine(
    (chain) => {
      const window = chain.statsWindow === undefined ? undefined : parseWindowSpec(chain.statsWindow);
      const horizon = parseDurationSeconds(chain.historyHorizon ?? "7d");
      return window?.kind !== "duration" || horizon === undefined || window.seconds <= horizon;
    },
    { message: "the statistics window cannot be longer than the history horizon (historyHorizon, default 7d)", path: ["statsWindow"] },
  )
  .refine(
    (chain) => {
      const summaries = parseDurationSeconds(chain.summaryHorizon ?? "52w");
      const horizon = parseDurationSeconds(chain.historyHorizon ?? "7d");
      return summaries === undefined || horizon === undefined || summaries >= horizon;
    },
    {
      message: "the hourly summaries are kept at least as long as the history (summaryHorizon, default 52w, against historyHorizon, default 7d)",
      path: ["summaryHorizon"],
    },
  );

export const apiKeySettingsSchema = z.strictObject({
  key: apiKeyValueSchema,
  /** With a secret, Basic must carry it and the key-in-path form is refused. */
  secret: z.string().min(1).max(256).optional(),
  label: z.string().max(64).optional(),
  createdAt: z.iso.datetime().optional(),
});

/**
 * A key made by the desktop app where the system has a key store: key and secret are sealed together by a
 * `SecretCipher` (Electron's safeStorage) and only the app that sealed them can read them back.
 */
export const sealedApiKeySchema = z.strictObject({
  /** The key's digest prefix (as the keyring's keyId): names it in the UI and in IPC without revealing it. */
  id: z.string().regex(/^[0-9a-f]{12}$/, "a key id is 12 lower-case hex characters"),
  /** The first and last four characters, so the user recognises it. */
  hint: z.string().max(16),
  requiresSecret: z.boolean(),
  cipher: z.literal("os-keystore"),
  /** Base64 of the cipher's output for `{"key":...,"secret":...}`. */
  sealed: z.base64().min(1),
  label: z.string().max(64).optional(),
  createdAt: z.iso.datetime().optional(),
});

/** The built-in busy and calm alert rules of every chain (shared/alerts/loadAlertRules.ts makes them from these). */
export const notificationSettingsSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Per-chain off switch: chains listed here never notify. */
  mutedChainIds: z.array(chainIdSchema).default([]),
  /** Busy after this many new blocks in a row above the busy threshold... */
  enterAfterBlocks: z.number().int().min(1).max(100).default(3),
  /** ...or at once on one block above the threshold by more than this margin (percent). */
  enterMarginPercent: z.number().min(0).max(1000).default(10),
  /** Calm again after this many new blocks in a row at or below the threshold. */
  calmAfterBlocks: z.number().int().min(1).max(1000).default(10),
  /** At least this long between two notifications about the same chain. */
  cooldownMinutes: z
    .number()
    .min(0)
    .max(24 * 60)
    .default(15),
});

/** The settings file's version; older files are migrated on read (`migrateSettings` below). */
export const SETTINGS_VERSION = 3;

export const settingsSchema = z.strictObject({
  version: z.literal(SETTINGS_VERSION).default(SETTINGS_VERSION),
  port: z.number().int().min(0).max(65_535).default(DEFAULT_PORT),
  /** 127.0.0.1 unless the user opts in to another interface. */
  host: z.string().trim().min(1).default(DEFAULT_HOST),
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
      requestsPerSecond: z.number().min(0).default(DEFAULT_RATE_LIMIT.requestsPerSecond),
      burst: z.number().int().min(1).default(DEFAULT_RATE_LIMIT.burst),
    })
    .default({ ...DEFAULT_RATE_LIMIT }),
  /**
   * The dashboard's own credential (not a user key): the page opens with it (`/?token=...`), so that its address stays
   * valid across restarts. Made on first start; replaced to rotate it (the old one is refused at once).
   */
  dashboardToken: apiKeyValueSchema.optional(),
  /** Keys sealed with the system key store by the desktop app; `npm run serve` cannot read these. */
  sealedApiKeys: z.array(sealedApiKeySchema).default([]),
  notifications: notificationSettingsSchema.prefault({}),
  /**
   * The user's alert rules (shared/wire/alertRuleSchema.ts has the schema of one). Any values here: each rule is
   * checked on its own when the rules are loaded (`loadAlertRules`), so that a bad rule is refused alone and never stops
   * the file from loading or the other rules from running; it stays in the file for the user to fix.
   */
  alerts: z.array(z.unknown()).default([]),
  /**
   * The currency of costs (ISO 4217 letters, "USD" by default). A price needs a feed quoted in it: the default feeds
   * are in USD; for another currency, set each chain's `priceFeed` to a feed quoted in it (its description is checked).
   */
  currency: currencySchema.default("USD"),
  /** The user's own actions for /costs (besides the defaults; one with a default's id replaces it). */
  actions: z
    .array(actionSettingsSchema)
    .max(32, "at most 32 actions")
    .refine((actions) => new Set(actions.map((action) => action.id)).size === actions.length, "each action's id must be different")
    .default([]),
  /** The chain whose base fee the tray shows; the first chain when unset or no longer followed. */
  trayChainId: chainIdSchema.optional(),
  theme: z.enum(["system", "light", "dark"]).default("system"),
  /** Desktop app only: open (hidden, in the tray) when the user logs in. */
  startAtLogin: z.boolean().default(false),
  /**
   * Desktop app only: the action (an id of /costs' actions, like "swap") whose cost, at the medium tier in the currency,
   * the tray shows instead of the base fee; unset: the base fee in Gwei.
   */
  trayAction: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, "an action id is 1 to 32 lower-case letters, digits or dashes, like swap")
    .optional(),
});

export type Settings = z.infer<typeof settingsSchema>;
export type ChainSettings = z.infer<typeof chainSettingsSchema>;
export type ApiKeySettings = z.infer<typeof apiKeySettingsSchema>;
export type SealedApiKey = z.infer<typeof sealedApiKeySchema>;
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
export type PriceFeedSettings = z.infer<typeof priceFeedSettingsSchema>;
export type { ActionSettings } from "../wire/actionSettingsSchema.ts";
export { actionSettingsSchema, currencySchema } from "../wire/actionSettingsSchema.ts";

export class SettingsError extends Error {
  override name = "SettingsError";
}

/** Validates settings, naming each problem by its path (`chains.0.rpcUrls.1: must be an http(s) ...`). */
export function parseSettings(input: unknown, source = "settings"): Settings {
  checkNesting(input, source);
  const result = settingsSchema.safeParse(migrateSettings(input, source));
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(top level)"}: ${issue.message}`);
  throw new SettingsError(`${source} is not valid:\n${problems.join("\n")}`);
}

/** Deeper than any settings the schema describes (an alert rule is 3 levels down), far below what a write can recurse. */
export const MAX_SETTINGS_DEPTH = 64;

/**
 * Refuses JSON nested deeper than MAX_SETTINGS_DEPTH. JSON.parse reads any depth, but the settings are written with
 * JSON.stringify, which recurses: a file nested 200,000 deep (kept as written inside `alerts`, whose rules are checked
 * one by one later) threw a RangeError at the service's first write. Walked with a stack of its own, for that reason.
 */
function checkNesting(input: unknown, source: string): void {
  const pending: Array<{ value: unknown; depth: number }> = [{ value: input, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, depth } = next;
    if (typeof value !== "object" || value === null) continue;
    if (depth > MAX_SETTINGS_DEPTH) throw new SettingsError(`${source} is not valid: it is nested more than ${MAX_SETTINGS_DEPTH} levels deep`);
    for (const child of Object.values(value)) pending.push({ value: child, depth: depth + 1 });
  }
}

/** A settings file written by a newer gasfees: not read (a guess could lose what it holds), kept as a backup. */
export class UnknownSettingsVersionError extends SettingsError {
  override name = "UnknownSettingsVersionError";
}

/**
 * One step per version: each takes a file of version `from` and returns it as version `from + 1`. Files without
 * a version are version 1 (the first release wrote none unless asked).
 */
const MIGRATIONS: ReadonlyArray<{ from: number; migrate: (file: Record<string, unknown>) => Record<string, unknown> }> = [
  // 1 -> 2: the desktop app's settings (notifications, tray chain, theme, start at login, sealed keys) arrive; their
  // defaults fill them in, and nothing a version 1 file holds changes meaning.
  { from: 1, migrate: (file) => ({ ...file, version: 2 }) },
  // 2 -> 3: user-defined alert rules arrive, none yet. The notifications stay as they are: they are the settings of the
  // built-in busy and calm rules. A file without a version that already lists rules (written by hand for version 3)
  // keeps them.
  { from: 2, migrate: (file) => ({ ...file, alerts: file.alerts ?? [], version: 3 }) },
];

/** Brings an older settings file up to SETTINGS_VERSION; anything that is not an object is left for the schema to refuse. */
export function migrateSettings(input: unknown, source = "settings"): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  let file = input as Record<string, unknown>;
  let version = file.version ?? 1;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) return file;
  if (version > SETTINGS_VERSION) {
    throw new UnknownSettingsVersionError(
      `${source} has version ${version}, written by a newer gasfees than this one (which reads up to version ${SETTINGS_VERSION})`,
    );
  }
  for (const step of MIGRATIONS) {
    if (step.from === version) {
      file = step.migrate(file);
      version = step.from + 1;
    }
  }
  return file;
}
