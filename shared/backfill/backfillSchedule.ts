import { BackfillAnchors, type BlockAnchor } from "./backfillAnchors.ts";
import type { BackfillPage } from "./backfillPage.ts";
import { newestPage, planBackfill, type BackfillPlan } from "./backfillPlan.ts";
import { BlockRangeSet, blocksIn, type BlockRange } from "./backfillRanges.ts";

export interface BackfillScheduleOptions {
  readonly heldRanges: readonly BlockRange[];
  readonly newest: BlockAnchor;
  /** Exact timestamps known besides `newest`. */
  readonly anchors: readonly BlockAnchor[];
  readonly horizonSeconds: number;
  readonly blockSpacingSeconds: number;
  readonly pageBlocks: number;
}

/**
 * The work of one backfill shared by its endpoints: what is held (given, and fetched since), the pages in flight and
 * the timestamps known. Each endpoint takes the newest page nobody holds or fetches; the plan is made again at each
 * take, so every page fetched (and its anchors) refines what is left.
 */
export class BackfillSchedule {
  readonly anchors: BackfillAnchors;
  readonly #held: BlockRangeSet;
  readonly #inFlight = new Set<BlockRange>();
  readonly #options: BackfillScheduleOptions;
  #changeListeners: (() => void)[] = [];
  #blocksFetched = 0;
  #pagesFetched = 0;

  constructor(options: BackfillScheduleOptions) {
    this.#options = options;
    this.#held = new BlockRangeSet(options.heldRanges);
    this.anchors = new BackfillAnchors([...options.anchors, options.newest]);
  }

  get blocksFetched(): number {
    return this.#blocksFetched;
  }

  get pagesFetched(): number {
    return this.#pagesFetched;
  }

  get pagesInFlight(): number {
    return this.#inFlight.size;
  }

  /** Blocks in the pages being fetched. */
  get blocksInFlight(): number {
    let blocks = 0;
    for (const range of this.#inFlight) blocks += blocksIn(range);
    return blocks;
  }

  /** What is left, counting the pages in flight as held. */
  plan(): BackfillPlan {
    const held = new BlockRangeSet(this.#held.ranges);
    for (const range of this.#inFlight) held.add(range);
    const { newest, horizonSeconds, blockSpacingSeconds, pageBlocks } = this.#options;
    return planBackfill({ held, newest, anchors: this.anchors, horizonSeconds, blockSpacingSeconds, pageBlocks });
  }

  /** The newest page left, at most `maxBlocks` long, now in flight; undefined when none is left (pages may be in flight). */
  take(maxBlocks: number): BlockRange | undefined {
    const page = newestPage(this.plan().missing, Math.min(maxBlocks, this.#options.pageBlocks));
    if (page) this.#inFlight.add(page);
    return page;
  }

  /**
   * The page fetched for `taken` (it may hold only the newest part of it: the rest is left to fetch) is kept: its
   * blocks are held and its anchors known. Anchors that contradict one learned meanwhile are left out.
   */
  complete(taken: BlockRange, page: BackfillPage): void {
    const toBlock = page.firstBlock + BigInt(page.baseFeesWei.length) - 1n;
    if (!this.#inFlight.has(taken) || page.firstBlock < taken.fromBlock || toBlock !== taken.toBlock) {
      throw new RangeError(`page ${page.firstBlock}..${toBlock} is not the page in flight for ${taken.fromBlock}..${taken.toBlock}`);
    }
    this.#inFlight.delete(taken);
    this.#held.add({ fromBlock: page.firstBlock, toBlock });
    for (const anchor of page.anchors) if (this.anchors.conflictWith(anchor) === undefined) this.anchors.add(anchor);
    this.#blocksFetched += page.baseFeesWei.length;
    this.#pagesFetched++;
    this.#changed();
  }

  /** The page was not fetched: left to fetch again. */
  release(taken: BlockRange): void {
    if (this.#inFlight.delete(taken)) this.#changed();
  }

  /** Calls `listener` once, at the next page kept or released. */
  onceChanged(listener: () => void): () => void {
    this.#changeListeners.push(listener);
    return () => {
      this.#changeListeners = this.#changeListeners.filter((other) => other !== listener);
    };
  }

  #changed(): void {
    const listeners = this.#changeListeners;
    this.#changeListeners = [];
    for (const listener of listeners) listener();
  }
}
