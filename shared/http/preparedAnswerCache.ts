import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import type { ChainPublication } from "../service/chainPublication.ts";
import { disputedHeaderList } from "./disputedHeader.ts";
import type { HeaderList } from "./headerList.ts";
import { type PreparedAnswers, prepareAnswers } from "./preparedAnswers.ts";

/** A chain's fee answers as of one of its publications. */
export interface PublishedAnswers {
  /** The bodies and headers of the publication's snapshot. */
  readonly answers: PreparedAnswers;
  /**
   * What the publication's answers say of its data, the same for every request: `X-Data-Disputed: true` while the
   * chain's endpoints disagree with no majority to settle it, `X-Block-Number`, and once an RPC endpoint brought data,
   * `Last-Modified` (when it last did). The data's age is the request's own (`JsonReply.dataAgeMs`).
   */
  readonly freshHeaders: HeaderList;
  /** The same, then the statistics window's `X-Stats-*` (the windowed fee endpoints). */
  readonly windowHeaders: HeaderList;
  /** The same with the blob window's; undefined for a chain without blob base fees. */
  readonly blobWindowHeaders: HeaderList | undefined;
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
      const lastModified = newDataAt === undefined ? [] : ["Last-Modified", new Date(newDataAt).toUTCString()];
      const freshHeaders = Object.freeze([...disputedHeaderList(publication), "X-Block-Number", answers.blockNumber, ...lastModified]);
      const windowHeaders = Object.freeze([...freshHeaders, ...answers.statsHeaders]);
      const blobWindowHeaders = answers.blob && Object.freeze([...freshHeaders, ...answers.blob.statsHeaders]);
      published = Object.freeze({ answers, freshHeaders, windowHeaders, blobWindowHeaders });
      this.#byPublication.set(publication, published);
    }
    return published;
  }
}
