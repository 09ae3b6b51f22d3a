import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import type { WindowSpec } from "../core/history/duration.ts";
import { MAX_ASKED_WINDOWS } from "../core/history/trackedWindows.ts";
import { windowKey } from "../core/history/windowStart.ts";
import { type ChainPlan, historyHorizonOf, statsWindowOf } from "../service/chainPlan.ts";

/**
 * The percentile windows of one chain's rules together span at most this many times the blocks of its history
 * horizon. Each distinct window is kept up to date block by block with its own copy of its fees (16 bytes a block:
 * core/history/trackedWindows.ts), so that a new block costs microseconds per rule; this bound keeps that memory under
 * two more copies of the history's fees (74 MB for a week of 0.25 s blocks), whatever rules the settings hold.
 */
export const WINDOW_BUDGET_HORIZONS = 2;

/**
 * What the percentile windows of the rules read so far cost each chain, so that a rule whose window would take a chain
 * past its bounds is refused (loadAlertRules): at most MAX_ASKED_WINDOWS distinct windows besides the statistics
 * window (the history keeps no more up to date), spanning together at most WINDOW_BUDGET_HORIZONS times the blocks of
 * the chain's history horizon (at its configured block time). A window the chain's statistics window or an earlier
 * rule uses costs nothing more.
 */
export class RuleWindowBudget {
  readonly #chains = new Map<number, { readonly keys: Set<string>; blocks: number }>();

  /** Takes `window` for a rule of `chain`; a problem, naming the bound, when it does not fit (nothing is taken then). */
  take(window: WindowSpec, chain: ChainPlan): string | undefined {
    const key = windowKey(window);
    if (key === windowKey(statsWindowOf(chain))) return undefined;
    let spent = this.#chains.get(chain.chainId);
    if (spent === undefined) {
      spent = { keys: new Set(), blocks: 0 };
      this.#chains.set(chain.chainId, spent);
    }
    if (spent.keys.has(key)) return undefined;
    const where = `${chain.name} (${chain.chainId})`;
    const reuse = "use a window another rule of the chain uses, or its statistics window (a rule without window)";
    if (spent.keys.size >= MAX_ASKED_WINDOWS) {
      return `"${window.text}" would be the ${MAX_ASKED_WINDOWS + 1}th distinct percentile window of ${where}'s rules, and at most ${MAX_ASKED_WINDOWS} are kept (besides the statistics window): ${reuse}`;
    }
    const horizon = historyHorizonOf(chain);
    const horizonBlocks = Math.ceil((horizon.seconds * 1000) / chain.blockTimeMs);
    const blocks = windowBlocks(window, chain, horizonBlocks);
    const budget = WINDOW_BUDGET_HORIZONS * horizonBlocks;
    if (spent.blocks + blocks > budget) {
      return (
        `"${window.text}" would make the percentile windows of ${where}'s rules span ${(spent.blocks + blocks).toLocaleString("en")} blocks together, ` +
        `more than ${WINDOW_BUDGET_HORIZONS} times its historyHorizon (${horizon.text}, ${budget.toLocaleString("en")} blocks at ${chain.blockTimeMs} ms a block): ${reuse}, or a shorter one`
      );
    }
    spent.keys.add(key);
    spent.blocks += blocks;
    return undefined;
  }
}

/**
 * The blocks `window` holds at the chain's configured block time: never fewer than the newest HISTORY_BLOCKS, nor more
 * than the horizon holds (windowStart.ts).
 */
function windowBlocks(window: WindowSpec, chain: ChainPlan, horizonBlocks: number): number {
  const blocks = window.kind === "blocks" ? window.blocks : Math.ceil((window.seconds * 1000) / chain.blockTimeMs);
  return Math.min(Math.max(blocks, HISTORY_BLOCKS), Math.max(horizonBlocks, HISTORY_BLOCKS));
}
