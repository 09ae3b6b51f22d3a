// How far the service's backfill has come, in words for its progress bar.
import { parseDurationSeconds } from "../../shared/core/history/duration.ts";
import type { HistoryStatus } from "../../shared/wire/networkStatus.ts";
import { durationWords } from "./windowWords.ts";

const DAY_S = 86_400;
const HOUR_S = 3_600;
const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const ONE_DECIMAL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

export interface BackfillWords {
  /** 0 to 1. */
  readonly progress: number;
  /** "2.3 of 7 days held", or "5.2 of 24 h held" for a horizon under two days. */
  readonly held: string;
  /** "about 41,000 blocks to go", or undefined while unknown. */
  readonly toGo: string | undefined;
}

/** The bar's words: the share of the horizon held (`backfill.progress`) in the horizon's own unit. */
export function backfillWords(history: HistoryStatus): BackfillWords {
  const progress = Math.min(1, Math.max(0, history.backfill.progress));
  const horizonSeconds = parseDurationSeconds(history.horizon);
  let held: string;
  if (horizonSeconds === undefined) {
    held = `${Math.floor(progress * 100)}% of ${history.horizon} held`;
  } else {
    const inDays = horizonSeconds >= 2 * DAY_S;
    const unit = inDays ? DAY_S : HOUR_S;
    held = `${ONE_DECIMAL.format(Math.floor((progress * horizonSeconds * 10) / unit) / 10)} of ${inDays ? `${ONE_DECIMAL.format(horizonSeconds / DAY_S)} days` : durationWords(horizonSeconds)} held`;
  }
  const blocksToGo = history.backfill.blocksToGo;
  const toGo = blocksToGo === null ? undefined : blocksToGo === 0 ? "no blocks to go" : `about ${GROUPED.format(roughly(blocksToGo))} blocks to go`;
  return { progress, held, toGo };
}

/** Two significant digits: an estimate written as one. */
function roughly(count: number): number {
  if (count < 100) return count;
  const magnitude = 10 ** (Math.floor(Math.log10(count)) - 1);
  return Math.round(count / magnitude) * magnitude;
}
