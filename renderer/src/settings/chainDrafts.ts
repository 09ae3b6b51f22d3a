import type { ChainSettings } from "../../../shared/config/settings.ts";

/** One chain as the settings page edits it: every field as typed. */
export interface ChainDraft {
  chainId: string;
  name: string;
  rpcUrls: string;
  /** A duration ("24h") or "N blocks"; empty: the default (24 h). */
  statsWindow: string;
  /** A duration ("7d"); empty: the default (7 days). */
  historyHorizon: string;
  /** The endpoints' labels as stored (edited in the file only): kept for the URLs still listed. */
  rpcLabels?: Readonly<Record<string, string>>;
  /** Whether the chain has a blob market of its own, as stored (edited in the file only): kept as it is. */
  blobMarket?: boolean;
  /** How long hourly summaries are kept, and how far they are backfilled, as stored (edited in the file only): kept as they are. */
  summaryHorizon?: string;
  outlookBackfill?: string;
}

export const EMPTY_CHAIN_DRAFT: ChainDraft = { chainId: "", name: "", rpcUrls: "", statsWindow: "", historyHorizon: "" };

/**
 * A stored chain as a draft. A window stored the old way (`statsWindowBlocks`) shows as "N blocks", except the 500 the
 * old default wrote, which now means the default (24 h), as the service reads it.
 */
export function draftOf(chain: ChainSettings): ChainDraft {
  const legacyWindow = chain.statsWindowBlocks !== undefined && chain.statsWindowBlocks > 500 ? `${chain.statsWindowBlocks} blocks` : "";
  return {
    chainId: String(chain.chainId),
    name: chain.name ?? "",
    rpcUrls: chain.rpcUrls.join("\n"),
    statsWindow: chain.statsWindow ?? legacyWindow,
    historyHorizon: chain.historyHorizon ?? "",
    ...(chain.rpcLabels === undefined ? {} : { rpcLabels: chain.rpcLabels }),
    ...(chain.blobMarket === undefined ? {} : { blobMarket: chain.blobMarket }),
    ...(chain.summaryHorizon === undefined ? {} : { summaryHorizon: chain.summaryHorizon }),
    ...(chain.outlookBackfill === undefined ? {} : { outlookBackfill: chain.outlookBackfill }),
  };
}

/** Drafts to settings; a chain id that does not parse is passed on as NaN so that the main process's validation names it. */
export function chainsOf(drafts: readonly ChainDraft[]): ChainSettings[] {
  return drafts.map((draft) => {
    const rpcUrls = draft.rpcUrls
      .split(/[\s,]+/)
      .map((url) => url.trim())
      .filter((url) => url !== "");
    const rpcLabels = Object.entries(draft.rpcLabels ?? {}).filter(([url]) => rpcUrls.includes(url));
    return {
      chainId: Number(draft.chainId.trim()),
      ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
      rpcUrls,
      ...(rpcLabels.length > 0 ? { rpcLabels: Object.fromEntries(rpcLabels) } : {}),
      ...(draft.statsWindow.trim() ? { statsWindow: draft.statsWindow.trim() } : {}),
      ...(draft.historyHorizon.trim() ? { historyHorizon: draft.historyHorizon.trim() } : {}),
      ...(draft.blobMarket === undefined ? {} : { blobMarket: draft.blobMarket }),
      ...(draft.summaryHorizon === undefined ? {} : { summaryHorizon: draft.summaryHorizon }),
      ...(draft.outlookBackfill === undefined ? {} : { outlookBackfill: draft.outlookBackfill }),
    };
  });
}
