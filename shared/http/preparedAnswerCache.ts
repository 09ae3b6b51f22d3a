import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import type { ChainPublication } from "../service/chainPublication.ts";
import { type PreparedAnswers, prepareAnswers } from "./preparedAnswers.ts";

/** A chain's fee answers as of one of its publications. */
export interface PublishedAnswers {
  /** The bodies and headers of the publication's snapshot. */
  readonly answers: PreparedAnswers;
  /** `Last-Modified`: when an RPC endpoint last brought new data, as an HTTP date; undefined when none has. */
  readonly lastModified: string | undefined;
}

/**
 * The fee endpoints' answers of each publication, made at the first request that needs them and then only read, so
 * that the requests of a block pay for one serialisation between them. A snapshot's bodies are made once whatever
 * publications carry it (one whose snapshot did not change, as when only the tips or the next fee are new, reuses them). Weakly held: the answers of a publication
 * go with it once a newer one replaced it. One per server (in its resources).
 */
export class PreparedAnswerCache {
  readonly #bySnapshot = new WeakMap<FeeSnapshot, PreparedAnswers>();
  readonly #byPublication = new WeakMap<ChainPublication, PublishedAnswers>();

  /** The answers of a publication that has data. */
  of(publication: ChainPublication & { readonly snapshot: FeeSnapshot }): PublishedAnswers {
    let published = this.#byPublication.get(publication);
    if (published === undefined) {
      const { snapshot, newDataAt } = publication;
      let answers = this.#bySnapshot.get(snapshot);
      if (answers === undefined) {
        answers = prepareAnswers(snapshot);
        this.#bySnapshot.set(snapshot, answers);
      }
      published = Object.freeze({ answers, lastModified: newDataAt === undefined ? undefined : new Date(newDataAt).toUTCString() });
      this.#byPublication.set(publication, published);
    }
    return published;
  }
}
