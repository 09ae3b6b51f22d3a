// How far the service's backfill has come, in words for its progress bar.
import { parseDurationSeconds } from "../../../shared/core/history/duration.ts";
import type { HistoryStatus } from "../../../shared/wire/networkStatus.ts";
import { durationWords } from "../text/windowWords.ts";

const DAY_S = 86_400;
const HOUR_S = 3_600;
const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const ONE_DECIMAL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

export interface BackfillWords {
  /** 0 to 1: of the horizon, or of what the chain holds when it is younger than the horizon. */
  readonly progress: number;
  /**
   * "2.3 of 7 days held", or "5.2 of 24 h held" for a horizon under two days; for a chain younger than the horizon
   * (the demo's two days of a week), in its blocks, of all it has: "5,200 of 15,000 blocks held".
   */
  readonly held: string;
  /** Why the whole is less than the horizon, or undefined. */
  readonly why: string | undefined;
  /** "about 41,000 blocks to go", or undefined while unknown. */
  readonly toGo: string | undefined;
}

/**
 * Below this share of the horizon, the chain's own age (what is held and what is to go) is the whole the bar is
 * measured against: block spacing makes the estimate of a horizon's worth of blocks wobble by a few percent.
 */
const YOUNGER_THAN_HORIZON = 0.9;

/**
 * The bar's words: the share held, in the horizon's own unit. The whole is the horizon (`backfill.progress`), or,
 * when the blocks held and the blocks to go span less (the backfill stops at the chain's first block), the chain's
 * blocks: counted in blocks, since the times of blocks not yet fetched are not known (early on, the service's times
 * of the blocks held are still estimates from the chain's nominal block time).
 */
export function backfillWords(history: HistoryStatus): BackfillWords {
  const horizonSeconds = parseDurationSeconds(history.horizon);
  const blocksToGo = history.backfill.blocksToGo;
  const toGo = blocksToGo === null ? undefined : blocksToGo === 0 ? "no blocks to go" : `about ${GROUPED.format(roughly(blocksToGo))} blocks to go`;
  if (horizonSeconds === undefined) {
    const progress = clampShare(history.backfill.progress);
    return { progress, held: `${Math.floor(progress * 100)}% of ${history.horizon} held`, why: undefined, toGo };
  }
  const reachable = reachableSeconds(history);
  if (reachable !== undefined && blocksToGo !== null && reachable < horizonSeconds * YOUNGER_THAN_HORIZON) {
    const total = history.blocks + blocksToGo;
    return {
      progress: clampShare(history.blocks / total),
      held: `${GROUPED.format(history.blocks)} of ${GROUPED.format(total)} blocks held`,
      why: `the chain is younger than the ${durationWords(horizonSeconds)} the history keeps: its first block is as far back as there is to fetch`,
      toGo,
    };
  }
  const progress = clampShare(history.backfill.progress);
  const inDays = horizonSeconds >= 2 * DAY_S;
  const unit = inDays ? DAY_S : HOUR_S;
  const held = `${ONE_DECIMAL.format(Math.floor((progress * horizonSeconds * 10) / unit) / 10)} of ${inDays ? `${ONE_DECIMAL.format(horizonSeconds / DAY_S)} days` : durationWords(horizonSeconds)} held`;
  return { progress, held, why: undefined, toGo };
}

/** The span the held blocks and the blocks to go cover, at the held blocks' spacing; undefined until that is known. */
function reachableSeconds(history: HistoryStatus): number | undefined {
  const { blocks, oldestTime, newestTime } = history;
  const blocksToGo = history.backfill.blocksToGo;
  if (blocksToGo === null || oldestTime === null || newestTime === null || blocks < 2 || newestTime <= oldestTime) return undefined;
  return ((newestTime - oldestTime) / (blocks - 1)) * (blocks - 1 + blocksToGo);
}

const clampShare = (share: number) => Math.min(1, Math.max(0, share));

/** Two significant digits: an estimate written as one. */
function roughly(count: number): number {
  if (count < 100) return count;
  const magnitude = 10 ** (Math.floor(Math.log10(count)) - 1);
  return Math.round(count / magnitude) * magnitude;
}
