import { defaultChainSettings } from "../config/defaultChainSettings.ts";
import { defaultBlobMarket, defaultBlockTimeMs, defaultChainName, defaultReorgDepthBlocks } from "../core/chains/defaultChains.ts";
import { parseDurationSeconds, parseWindowSpec, type WindowSpec } from "../core/history/duration.ts";
import type { ChainSettings, PriceFeedSettings } from "../config/settings.ts";
import { defaultL1FeeKind, type L1FeeKind } from "../rpc/contracts/l1FeeReads.ts";
import type { HourlySummary } from "../core/outlook/hourlySummary.ts";

/** The statistics window when a chain's settings name none (CONTRACT.md: 24 hours). */
export const DEFAULT_STATS_WINDOW = "24h";
/** How far back the history goes when a chain's settings say nothing (CONTRACT.md: 7 days). */
export const DEFAULT_HISTORY_HORIZON = "7d";
/** How long hourly summaries are kept when a chain's settings say nothing (CONTRACT.md: 52 weeks). */
export const DEFAULT_SUMMARY_HORIZON = "52w";
/** How far before the history horizon a first start backfills summaries when the settings say nothing (CONTRACT.md: 8 weeks). */
export const DEFAULT_OUTLOOK_BACKFILL = "8w";

/** One chain the service follows, with every default resolved. */
export interface ChainPlan {
  readonly chainId: number;
  readonly name: string;
  readonly rpcUrls: readonly string[];
  /** The user's name of an endpoint, by its URL (settings' `rpcLabels`). */
  readonly rpcLabels?: Readonly<Record<string, string>>;
  readonly blockTimeMs: number;
  /** How deep the chain may reorganise (rpc/feed/chainHead.ts); default 64 blocks. */
  readonly reorgDepthBlocks?: number;
  /** The statistics window; default DEFAULT_STATS_WINDOW. */
  readonly statsWindow?: WindowSpec;
  /** Shorthand for a window of the newest N blocks (tests, older settings files); `statsWindow` wins. */
  readonly statsWindowBlocks?: number;
  /** How far back the history is kept; default DEFAULT_HISTORY_HORIZON. */
  readonly historyHorizon?: string;
  /** How long hourly summaries are kept; default DEFAULT_SUMMARY_HORIZON (never shorter than the history horizon). */
  readonly summaryHorizon?: string;
  /** How far before the history horizon a first start backfills hourly summaries; default DEFAULT_OUTLOOK_BACKFILL. */
  readonly outlookBackfill?: string;
  /** Keep this chain's history in the store (default true); the demo's chain is made anew at each start, so it is not. */
  readonly persistHistory?: boolean;
  /**
   * Hourly summaries of the chain's past from elsewhere, oldest first (the demo's: real mainnet samples, shifted in
   * time): written before the feed starts wherever the chain holds no summary of the hour.
   */
  readonly pastHourlySummaries?: readonly HourlySummary[];
  /** Overrides the interval derived from the block time (demo, tests). */
  readonly pollIntervalMs?: number;
  /** Per RPC request; the feed's default (10 s) unless set (fault-injection tests). */
  readonly requestTimeoutMs?: number;
  /** The chain's `priceFeed` setting: a feed replacing the default one, or false for no price. */
  readonly priceFeed?: PriceFeedSettings | false;
  /** How the chain charges for L1 data; default by chain id (defaultL1FeeKind): OP Mainnet and Base, Arbitrum One. */
  readonly l1FeeKind?: L1FeeKind;
  /** Whether the chain has a blob market of its own (settings' `blobMarket`); default by chain id (defaultBlobMarket). */
  readonly blobMarket?: boolean;
}

/**
 * Whether the chain's blob fields are kept: only on a chain with a blob market of its own. A rollup's are dropped
 * where blocks enter its record, whatever its endpoints send (CONTRACT.md, "Blob fees").
 */
export function hasBlobMarket(plan: Pick<ChainPlan, "chainId" | "blobMarket">): boolean {
  return plan.blobMarket ?? defaultBlobMarket(plan.chainId);
}

/** The plan's statistics window, defaults resolved. */
export function statsWindowOf(plan: ChainPlan): WindowSpec {
  if (plan.statsWindow) return plan.statsWindow;
  if (plan.statsWindowBlocks !== undefined) return { kind: "blocks", blocks: plan.statsWindowBlocks, text: `${plan.statsWindowBlocks} blocks` };
  return parseWindowSpec(DEFAULT_STATS_WINDOW)!;
}

/** The plan's history horizon in seconds, and as written. */
export function historyHorizonOf(plan: ChainPlan): { readonly text: string; readonly seconds: number } {
  const text = plan.historyHorizon ?? DEFAULT_HISTORY_HORIZON;
  const seconds = parseDurationSeconds(text);
  if (seconds === undefined) throw new RangeError(`chain ${plan.chainId}: the history horizon "${text}" is not a duration like "7d"`);
  return { text, seconds };
}

/** The plan's summary horizon in seconds, and as written: at least the history horizon. */
export function summaryHorizonOf(plan: ChainPlan): { readonly text: string; readonly seconds: number } {
  const text = plan.summaryHorizon ?? DEFAULT_SUMMARY_HORIZON;
  const seconds = parseDurationSeconds(text);
  if (seconds === undefined) throw new RangeError(`chain ${plan.chainId}: the summary horizon "${text}" is not a duration like "52w"`);
  const history = historyHorizonOf(plan);
  return seconds >= history.seconds ? { text, seconds } : history;
}

/** The plan's outlook backfill in seconds, and as written. */
export function outlookBackfillOf(plan: ChainPlan): { readonly text: string; readonly seconds: number } {
  const text = plan.outlookBackfill ?? DEFAULT_OUTLOOK_BACKFILL;
  const seconds = parseDurationSeconds(text);
  if (seconds === undefined) throw new RangeError(`chain ${plan.chainId}: the outlook backfill "${text}" is not a duration like "8w"`);
  return { text, seconds };
}

export function chainPlanFrom(chain: ChainSettings): ChainPlan {
  const window = chain.statsWindow === undefined ? undefined : parseWindowSpec(chain.statsWindow);
  return {
    chainId: chain.chainId,
    name: chain.name ?? defaultChainName(chain.chainId),
    rpcUrls: chain.rpcUrls,
    ...(chain.rpcLabels === undefined ? {} : { rpcLabels: chain.rpcLabels }),
    blockTimeMs: chain.blockTimeMs ?? defaultBlockTimeMs(chain.chainId),
    reorgDepthBlocks: defaultReorgDepthBlocks(chain.chainId),
    ...(window ? { statsWindow: window } : {}),
    // Files written before statsWindow said 500 blocks by default; a larger count was the user's choice.
    ...(window === undefined && chain.statsWindowBlocks !== undefined && chain.statsWindowBlocks > 500 ? { statsWindowBlocks: chain.statsWindowBlocks } : {}),
    ...(chain.historyHorizon === undefined ? {} : { historyHorizon: chain.historyHorizon }),
    ...(chain.summaryHorizon === undefined ? {} : { summaryHorizon: chain.summaryHorizon }),
    ...(chain.outlookBackfill === undefined ? {} : { outlookBackfill: chain.outlookBackfill }),
    ...(chain.priceFeed === undefined ? {} : { priceFeed: chain.priceFeed }),
    l1FeeKind: defaultL1FeeKind(chain.chainId),
    ...(chain.blobMarket === undefined ? {} : { blobMarket: chain.blobMarket }),
  };
}

/** The chains of the settings, or the default chains through viem's public RPC endpoints when none are set. */
export function chainPlansFrom(chains: readonly ChainSettings[] | undefined): ChainPlan[] {
  return (chains ?? defaultChainSettings()).map(chainPlanFrom);
}
