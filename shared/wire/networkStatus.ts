// The state of the followed chains as `GET /networks`, the event streams and the dashboard carry it.
import { z } from "zod";
import { gweiStringSchema } from "./apiBodies.ts";
import { priceSchema } from "./costs.ts";

export const endpointStatusSchema = z
  .strictObject({
    url: z.string().describe("Redacted: no credentials, no path secrets."),
    transport: z.enum(["http", "ws"]),
    state: z
      .enum(["unknown", "ok", "failing", "wrong-chain", "suspect"])
      .describe(
        "unknown: not tried yet; ok: answering; failing: backing off until retryAt; wrong-chain: reports another chain id, never used; " +
          "suspect: its answers do not fit what the chain has shown (lastError says how), set aside until it agrees again.",
      ),
    active: z.boolean(),
    lastError: z.string().optional(),
    reportedChainId: z.number().int().optional(),
    retryAt: z.number().int().optional().describe("Epoch ms of the next attempt while failing."),
    setAsideFor: z
      .enum(["ahead", "behind", "rewound", "wrong-chain", "disagrees"])
      .optional()
      .describe(
        "Why it is set aside (no reader uses it meanwhile: not the feed, the backfill, prices nor L1 fees): its head runs ahead of what time allows, " +
          "lags far behind, or it rewrote blocks deeper than the chain reorganises; it serves another chain; or its blocks, hashes, prices or fees " +
          "disagree with the other endpoints' or with the history held (lastError says how).",
      ),
  })
  .readonly();

/**
 * syncing: no data yet; unreachable: no data yet and every endpoint fails; ok: following; degraded: every endpoint
 * failing after data arrived, the last data served with its age; no-base-fee: the chain has no EIP-1559 base fee.
 */
export const chainStateSchema = z.enum(["syncing", "unreachable", "ok", "degraded", "no-base-fee"]);

const blockNumberSchema = z.string().regex(/^[0-9]+$/);

export const backfillStatusSchema = z
  .strictObject({
    running: z.boolean().describe("Whether older blocks are being fetched now."),
    progress: z.number().min(0).max(1).describe("The share of the history horizon held, 0..1 (1 once the horizon or the chain's genesis is reached)."),
    blocksToGo: z.number().int().min(0).nullable().describe("Blocks still to fetch, estimated from the chain's block spacing; null before the first block."),
  })
  .readonly();

export const outlookBackfillStatusSchema = z
  .strictObject({
    running: z.boolean().describe("Whether hours before the history are being read now."),
    fromTime: z.number().int().nullable().describe("Unix seconds: the oldest hour it fills; null until the history backfill is done."),
    toTime: z.number().int().nullable().describe("Unix seconds: the end of the newest hour it fills (the start of the history's oldest hour)."),
    hoursHeld: z.number().int().min(0).describe("Hours of fromTime..toTime summarised (now or before a restart), or read and found without a block."),
    hoursWanted: z.number().int().min(0).describe("Hours in fromTime..toTime (outlookBackfill); 0 until the history backfill is done."),
  })
  .readonly()
  .describe(
    "The outlook backfill (CONTRACT.md, Outlook): hourly summaries of outlookBackfill (default 8w) before the history, read after the history backfill, gently.",
  );

export const storeHealthSchema = z
  .strictObject({
    state: z
      .enum(["ok", "failing", "off"])
      .describe(
        "ok: every block is written to the history file; failing: the last write failed (problem says why), blocks wait in memory " +
          "(unsavedBlocks) and are written once the file takes writes again; off: the history is kept in memory only (no file, or it could not be opened).",
      ),
    problem: z
      .enum(["locked", "full", "unwritable", "damaged"])
      .nullable()
      .describe(
        "While failing: locked (another process holds the file's write lock), full (no space left, or the file's size limit), " +
          "unwritable (no permission, an I/O error), damaged (the file is corrupt); null otherwise.",
      ),
    since: z.number().int().nullable().describe("Epoch ms since the store has been failing; null while ok or off."),
    unsavedBlocks: z.number().int().min(0).describe("This chain's blocks held in memory and waiting to be written to the file (at most 262,144)."),
    droppedBlocks: z
      .number()
      .int()
      .min(0)
      .describe("Blocks of this chain that did not fit the wait queue since the start: missing from the file (a later start backfills them)."),
  })
  .readonly()
  .describe("Whether the chain's history reaches the file it is kept in across restarts. One file serves every chain: state and problem are the same for all.");

export const summaryStatusSchema = z
  .strictObject({
    horizon: z.string().describe('How long hourly summaries are kept, as configured (summaryHorizon, "52w").'),
    hours: z.number().int().min(0).describe("Hourly summaries held (GET /networks/{chainId}/hourlyStats)."),
    oldestStart: z.number().int().nullable().describe("Unix seconds: the start of the oldest hour summarised; null while none is."),
  })
  .readonly()
  .describe("The chain's hourly summaries, the outlook's memory (CONTRACT.md, \"Outlook: wait or pay now\").");

export const historyStatusSchema = z
  .strictObject({
    horizon: z.string().describe('How far back the history is kept, as configured ("7d").'),
    blocks: z.number().int().min(0).describe("Blocks held (gaps not counted)."),
    oldestBlock: blockNumberSchema.nullable(),
    newestBlock: blockNumberSchema.nullable(),
    oldestTime: z.number().int().nullable().describe("Unix seconds of the oldest block held."),
    newestTime: z.number().int().nullable().describe("Unix seconds of the newest block held."),
    backfill: backfillStatusSchema,
    outlookBackfill: outlookBackfillStatusSchema.optional(),
    store: storeHealthSchema,
    summaries: summaryStatusSchema,
  })
  .readonly()
  .describe("The history kept across restarts (CONTRACT.md, History).");

export const networkStatusSchema = z
  .strictObject({
    chainId: z.number().int().min(1),
    name: z.string(),
    state: chainStateSchema,
    newestBlock: z
      .string()
      .regex(/^[0-9]+$/)
      .nullable(),
    currentBaseFee: gweiStringSchema.nullable().describe("The next block's base fee as the RPC reports it, else the newest block's."),
    baseFeePercentile: gweiStringSchema.nullable(),
    busyThreshold: gweiStringSchema.nullable(),
    minBaseFee: gweiStringSchema.nullable(),
    maxBaseFee: gweiStringSchema.nullable(),
    busy: z.boolean().nullable().describe("The current base fee is above the busy threshold; null without data."),
    blobBaseFee: gweiStringSchema
      .nullable()
      .describe("The next block's blob base fee (EIP-4844) as the RPC reports it, else the newest block's; null on a chain without blob fees or without data."),
    blobBaseFeePercentile: gweiStringSchema
      .nullable()
      .describe("The 50th percentile of the statistics window's blob base fees (blobBaseFeePercentile); null without blob fees."),
    blobBusyThreshold: gweiStringSchema
      .nullable()
      .describe("The 90th percentile of the statistics window's blob base fees (blobBusyThreshold); null without blob fees."),
    blobBusy: z
      .boolean()
      .nullable()
      .describe("The current blob base fee is above the blob busy threshold (p90 of the window's blob base fees); null without blob fees."),
    blobSchedule: z
      .strictObject({
        target: z.number().int().min(1).describe("Blobs per block the blob base fee aims at."),
        max: z.number().int().min(1).describe("Blobs a block may carry."),
        source: z
          .enum(["eth_config", "known"])
          .describe("Where it comes from: the endpoint's eth_config, or the schedule known for the chain when its endpoint does not answer eth_config."),
      })
      .readonly()
      .nullable()
      .describe("The blob schedule of the fork the chain is on (what the dashboard measures blob use against); null on a chain without blob fees."),
    historyBlocks: z.number().int().min(0),
    statsWindow: z.string().describe('The statistics window as configured: a duration ("24h") or a count of newest blocks ("500 blocks").'),
    statsWindowBlocks: z.number().int().min(0).describe("The blocks the statistics are computed over now (X-Stats-Blocks); 0 without data."),
    statsFromBlock: blockNumberSchema.nullable().describe("The oldest block of the statistics window (X-Stats-From-Block); null without data."),
    statsToBlock: blockNumberSchema.nullable().describe("The newest block of the statistics window (X-Stats-To-Block); null without data."),
    history: historyStatusSchema,
    blockTimeMs: z.number().int().min(1),
    dataAgeMs: z
      .number()
      .int()
      .min(0)
      .nullable()
      .describe("Milliseconds since an RPC endpoint last brought new data (the age of the newest new data); null without data."),
    endpoints: z.array(endpointStatusSchema).readonly(),
    disputed: z
      .boolean()
      .optional()
      .describe(
        "true while the chain's endpoints disagree (a block's base fee or hash, a backfilled page where it meets the history) and no majority settles it " +
          "(two endpoints, two stories): the data served is one endpoint's word, and the fee answers carry X-Data-Disputed: true meanwhile. Absent otherwise.",
      ),
    disputes: z.array(z.string()).readonly().optional().describe("How they disagree, one line per disagreement; absent while none."),
    price: priceSchema.nullable().describe("The gas token's price in the currency (as in /costs); null while there is none."),
    priceProblem: z
      .string()
      .nullable()
      .describe("Why price is null (no feed, stale, zero, failing, testnet), or why a held price's newer round is not used (as in /costs); null otherwise."),
  })
  .readonly();

export const networksSchema = z.array(networkStatusSchema).readonly();

export type EndpointStatus = z.infer<typeof endpointStatusSchema>;
export type ChainState = z.infer<typeof chainStateSchema>;
export type HistoryStatus = z.infer<typeof historyStatusSchema>;
export type StoreHealth = z.infer<typeof storeHealthSchema>;
export type BackfillStatus = z.infer<typeof backfillStatusSchema>;
export type OutlookBackfillStatus = z.infer<typeof outlookBackfillStatusSchema>;
export type NetworkStatus = z.infer<typeof networkStatusSchema>;
