// A FeeSource for the dashboard's bench: a TestFeeSource's publications with a held history's status in each, so that
// the page shows its history views (it asks baseFeeStats only of a chain whose status says it holds history) while
// the bench writes live blocks into the TestFeeSource exactly as before.
import type { HistoryView } from "../../shared/core/history/historyView.ts";
import type { ChainPublication } from "../../shared/service/chainPublication.ts";
import type { FeeSource } from "../../shared/service/feeSource.ts";
import type { HistoryStatus } from "../../shared/wire/networkStatus.ts";

export class HistoryBackedSource implements FeeSource {
  readonly #inner: FeeSource;
  readonly #statuses: ReadonlyMap<number, HistoryStatus>;
  /** Each publication of the inner source, with the history's status in it: made once, so that readers see one object. */
  readonly #patched = new WeakMap<ChainPublication, ChainPublication>();

  /** `statuses`: per chain, the status of the history the inner source's `history(chainId)` holds. */
  constructor(inner: FeeSource, statuses: ReadonlyMap<number, HistoryStatus>) {
    this.#inner = inner;
    this.#statuses = statuses;
  }

  get(chainId: number): ChainPublication | undefined {
    const publication = this.#inner.get(chainId);
    return publication === undefined ? undefined : this.#patch(publication);
  }

  list(): readonly ChainPublication[] {
    return this.#inner.list().map((publication) => this.#patch(publication));
  }

  history(chainId: number): HistoryView | undefined {
    return this.#inner.history(chainId);
  }

  subscribe(listener: (publication: ChainPublication) => void): () => void {
    return this.#inner.subscribe((publication) => listener(this.#patch(publication)));
  }

  #patch(publication: ChainPublication): ChainPublication {
    const history = this.#statuses.get(publication.chainId);
    if (history === undefined) return publication;
    let patched = this.#patched.get(publication);
    if (patched === undefined) {
      patched = Object.freeze({ ...publication, status: Object.freeze({ ...publication.status, history }) });
      this.#patched.set(publication, patched);
    }
    return patched;
  }
}

/** The status of a history of `view`'s blocks, kept whole (no backfill running) over a horizon of `horizon`. */
export function heldHistoryStatus(view: HistoryView, horizon: string): HistoryStatus {
  const { oldest, newest } = view;
  return Object.freeze({
    horizon,
    blocks: view.blocksHeld,
    oldestBlock: oldest === undefined ? null : oldest.block.toString(),
    newestBlock: newest === undefined ? null : newest.block.toString(),
    oldestTime: oldest === undefined ? null : Math.floor(oldest.timestamp),
    newestTime: newest === undefined ? null : Math.floor(newest.timestamp),
    backfill: Object.freeze({ running: false, progress: 1, blocksToGo: 0 }),
  });
}
