// /outlook's bodies, made once per publication, horizon, threshold and backtest, then only read: a dashboard polling
// the same question each block is answered from bytes already made.
import type { PooledBacktest } from "../core/outlook/outlookBacktestSlices.ts";
import type { ChainPublication } from "../service/chainPublication.ts";
import { type PreparedBody, preparedJson } from "./preparedBody.ts";

/** Bodies kept per publication at most: the questions asked between two blocks are few; more are made and not kept. */
const KEPT_PER_PUBLICATION = 64;

interface Kept {
  readonly backtest: PooledBacktest;
  readonly prepared: PreparedBody;
}

/** Each publication's /outlook bodies by question (horizon and threshold in wei), each with the backtest it holds. */
export class OutlookAnswers {
  readonly #bodies = new WeakMap<ChainPublication, Map<string, Kept>>();

  /** The body of `question` for `publication` with `backtest`: the one made before, else `make()`'s, kept. */
  of(publication: ChainPublication, question: string, backtest: PooledBacktest, make: () => unknown): PreparedBody {
    let bodies = this.#bodies.get(publication);
    if (bodies === undefined) {
      bodies = new Map();
      this.#bodies.set(publication, bodies);
    }
    const kept = bodies.get(question);
    // A backtest prepared anew (an hour closed, the publication the same) makes the body anew.
    if (kept !== undefined && kept.backtest === backtest) return kept.prepared;
    const prepared = preparedJson(make());
    if (bodies.size < KEPT_PER_PUBLICATION || kept !== undefined) bodies.set(question, { backtest, prepared });
    return prepared;
  }
}
