import type { BlobFeeSnapshot, FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import { MAX_HEADER_AHEAD_SECONDS } from "../core/history/blockAnchor.ts";
import { type BlockAnchor, ChainHistory, type HistoryChange, type HistoryWrite } from "../core/history/chainHistory.ts";
import { type ChainTip, snapshotOfHistory } from "../core/history/windowSnapshot.ts";
import type { FeedBlocks, FeedReport } from "../rpc/feed/feedReport.ts";
import type { Logger } from "../log/logger.ts";
import type { BackfillStatus, HistoryStatus, OutlookBackfillStatus, StoreHealth } from "../wire/networkStatus.ts";
import { withoutBlobFields } from "./blobFieldsKept.ts";
import { type ChainPlan, hasBlobMarket, historyHorizonOf, statsWindowOf, summaryHorizonOf } from "./chainPlan.ts";
import { defaultReorgDepthBlocks } from "../core/chains/defaultChains.ts";
import { HOUR_SECONDS, hourStartOf, type HourlySummary } from "../core/outlook/hourlySummary.ts";
import { HourlySummaryBook } from "./hourlySummaryBook.ts";
import { closedHoursBefore, timestampOf, wholeHourFees, wholeHourSummary } from "./heldHours.ts";
import { summarizeHour } from "../core/outlook/summarizeHour.ts";
import type { HistoryPart } from "./chainPublication.ts";
import type { StoreWriter } from "./storeWriter.ts";
import { BlockSources, type SourcedRange } from "./blockSources.ts";

export type { HistoryPersistence } from "./storeWriter.ts";

/** Blocks as the store takes them: fees and anchors, and the gas-used ratios and blob base fees where the RPC gave them. */
export interface BlocksToStore {
  readonly baseFeesWei: readonly bigint[] | BigUint64Array;
  readonly anchors?: readonly BlockAnchor[];
  readonly gasUsedRatios?: readonly number[];
  readonly blobBaseFeesWei?: readonly bigint[];
}

/** A write of blocks with what the RPC gave beside their fees (gas-used ratios, blob base fees, blob gas used ratios). */
export type RecordWrite = HistoryWrite & Pick<BlocksToStore, "gasUsedRatios" | "blobBaseFeesWei">;

/** The store keeps gas-used ratios up to 6.5534 (to 1/10,000); a page with a larger one is kept without its ratios. */
const storableRatio = (ratio: number) => ratio >= 0 && ratio <= 6.5534;

const IDLE_BACKFILL: BackfillStatus = Object.freeze({ running: false, progress: 0, blocksToGo: null });

/** Prune the store at most this often (it only drops blocks beyond the horizon). */
const PRUNE_EVERY_MS = 10 * 60_000;

/** Hours waiting to be summarised once closed, at most (more: the oldest are left to the next start's rebuild). */
const MAX_DIRTY_HOURS = 10_000;

/** A chain whose history is kept in memory only. */
const NO_STORE: StoreHealth = Object.freeze({ state: "off", problem: null, since: null, unsavedBlocks: 0, droppedBlocks: 0 });

const NO_TIP: ChainTip = Object.freeze({ newestBlock: undefined, nextBaseFeeWei: undefined, nextBlobBaseFeeWei: undefined, recentTips: Object.freeze([]) });

/**
 * One chain's record: its history in memory (ChainHistory), written through to the store, and the snapshot the
 * service publishes, made from the history alone (core/history/windowSnapshot.ts): the one place the chain's
 * statistics are computed. The feed's blocks, backfilled pages and blocks loaded from the store all go in through
 * `#write`; readers get `part()`.
 */
export class ChainRecord {
  readonly #plan: ChainPlan;
  readonly #history: ChainHistory;
  readonly #store: StoreWriter | undefined;
  readonly #logger: Logger;
  readonly #horizonText: string;
  /** Whether blob fields are kept: not on a rollup, whatever its endpoints or its stored history carry. */
  readonly #blobMarket: boolean;
  /** What the feed knows beyond the blocks (its head, the next base fee, tips), as of its newest report. */
  #tip: ChainTip = NO_TIP;
  /** The published snapshot, made again only after the history or the tip changed. */
  #snapshot: FeeSnapshot | undefined;
  #snapshotStale = true;
  #status: HistoryStatus;
  #backfill: BackfillStatus = IDLE_BACKFILL;
  /** Said once the chain has an outlook backfill (a chain kept in the history file). */
  #outlookBackfill: OutlookBackfillStatus | undefined;
  #changed = false;
  #lastPruneMs = 0;
  /** Which endpoint supplied each block written in this run. */
  readonly #sources = new BlockSources();
  /** The chain's hourly summaries: the one book the publication takes them from (hourlySummaryBook.ts). */
  readonly #summaries = new HourlySummaryBook();
  readonly #summaryHorizon: { readonly text: string; readonly seconds: number };
  /** An hour is closed once the block this deep below the newest is past its end (the chain's reorg depth). */
  readonly #safeDepth: number;
  /** Hours whose blocks changed (or were retimed) and are to be summarised again once closed. */
  readonly #dirtyHours = new Set<number>();
  #lastSummaryPruneMs = 0;

  constructor(plan: ChainPlan, options: { readonly store?: StoreWriter | undefined; readonly logger: Logger }) {
    this.#plan = plan;
    const horizon = historyHorizonOf(plan);
    this.#horizonText = horizon.text;
    this.#blobMarket = hasBlobMarket(plan);
    this.#history = new ChainHistory({ window: statsWindowOf(plan), horizonSeconds: horizon.seconds, blockTimeMs: plan.blockTimeMs });
    this.#store = options.store;
    this.#logger = options.logger;
    this.#summaryHorizon = summaryHorizonOf(plan);
    this.#safeDepth = plan.reorgDepthBlocks ?? defaultReorgDepthBlocks(plan.chainId);
    this.#status = this.#makeStatus();
  }

  /** The chain's hourly summaries, oldest first (the same array until an hour is added, changed or dropped). */
  get hourlySummaries(): readonly HourlySummary[] {
    return this.#summaries.list;
  }

  /**
   * Summaries written through the StoreWriter by another part of the service (the outlook backfill): kept in the
   * chain's book. Returns whether an hour was added or changed (then the chain is to be published again).
   */
  takeHourlySummaries(summaries: readonly HourlySummary[]): boolean {
    const changed = this.#summaries.put(summaries);
    if (changed) {
      this.#changed = true;
      this.#status = this.#makeStatus();
    }
    return changed;
  }

  get history(): ChainHistory {
    return this.#history;
  }

  /** The live feed's newest block; undefined before its first report (the history may hold older ones). */
  get liveNewestBlock(): bigint | undefined {
    return this.#tip.newestBlock;
  }

  /** The newest blocks held (up to `count`, back to the first gap): what the feed holds after a restart. */
  newestBlocks(count: number): FeedBlocks | undefined {
    const newest = this.#history.newest;
    if (newest === undefined) return undefined;
    const baseFeesWei = this.#history.newestFees(count);
    return { firstBlock: newest.block - BigInt(baseFeesWei.length) + 1n, baseFeesWei };
  }

  /** Loads what the store holds for the chain (at start, before the feed's first report). */
  loadStored(): void {
    if (!this.#store) return;
    let blocks = 0;
    try {
      for (const run of this.#store.load(this.#plan.chainId)) {
        this.#history.write(
          {
            firstBlock: run.firstBlock,
            baseFeesWei: run.baseFeesWei,
            anchors: run.anchors,
            ...(run.gasUsedRatios ? { gasUsedRatios: run.gasUsedRatios } : {}),
            ...(this.#blobMarket && run.blobBaseFeesWei?.some((fee) => fee >= 0n) ? { blobBaseFeesWei: run.blobBaseFeesWei } : {}),
          },
          Date.now() / 1_000,
        );
        blocks += run.baseFeesWei.length;
      }
    } catch (error) {
      this.#logger.warn("could not read the chain's stored history; going on with what was read", { chainId: this.#plan.chainId, error: String(error) });
    }
    this.#summaries.put(this.#store.loadHourlySummaries(this.#plan.chainId));
    this.#summarizeHeldHours();
    if (blocks > 0)
      this.#logger.info("history loaded", {
        chainId: this.#plan.chainId,
        blocks,
        oldestBlock: String(this.#history.oldest?.block),
        newestBlock: String(this.#history.newest?.block),
      });
    this.#status = this.#makeStatus();
  }

  /** Takes a feed's report: writes its blocks and anchors into the history (and the store), and keeps its tip. */
  takeReport(report: FeedReport, nowMs: number): void {
    const last = report.blocks.length - 1;
    const source = report.endpoints.find((endpoint) => endpoint.active)?.url;
    if (source !== undefined)
      for (const blocks of report.blocks) this.#sources.record(blocks.firstBlock, blocks.firstBlock + BigInt(blocks.baseFeesWei.length) - 1n, source);
    report.blocks.forEach((blocks, i) => this.#write(i === last ? { ...blocks, anchors: report.anchors } : blocks, nowMs));
    // Headers of blocks already held (a poll that found nothing new, a ws head) still make their time exact.
    if (report.blocks.length === 0 && report.anchors.length > 0)
      this.#write({ firstBlock: report.anchors[0]!.block, baseFeesWei: [], anchors: report.anchors }, nowMs);
    const tip = this.#tip;
    const nextBlobBaseFeeWei = this.#blobMarket ? report.nextBlobBaseFeeWei : undefined;
    if (
      tip.newestBlock !== report.newestBlock ||
      tip.nextBaseFeeWei !== report.nextBaseFeeWei ||
      tip.nextBlobBaseFeeWei !== nextBlobBaseFeeWei ||
      tip.recentTips !== report.recentTips
    ) {
      this.#tip = Object.freeze({
        newestBlock: report.newestBlock,
        nextBaseFeeWei: report.nextBaseFeeWei,
        nextBlobBaseFeeWei,
        recentTips: report.recentTips,
      });
      this.#snapshotStale = true;
    }
  }

  /** Writes a backfilled page (or any older blocks) into the history and the store; `source`: the endpoint it came from. */
  writePage(page: RecordWrite, nowMs: number, source?: string): void {
    if (source !== undefined) this.#sources.record(page.firstBlock, page.firstBlock + BigInt(page.baseFeesWei.length) - 1n, source);
    this.#write(page, nowMs);
  }

  /** The base fee held for `block` and the endpoint that supplied it in this run (undefined: kept from before); undefined when not held. */
  heldFeeAt(block: bigint): { readonly baseFeeWei: bigint; readonly source: string | undefined } | undefined {
    const baseFeeWei = this.#history.baseFeeAt(block);
    return baseFeeWei === undefined ? undefined : { baseFeeWei, source: this.#sources.sourceAt(block) };
  }

  /** The runs of blocks held that `source` supplied in this run, oldest first. */
  blocksFrom(source: string): readonly SourcedRange[] {
    return this.#sources.rangesOf(source);
  }

  /** The store's health changed (a problem started or ended, its queue was written): the next part says so. */
  storeHealthChanged(): void {
    this.#status = this.#makeStatus();
    this.#changed = true;
  }

  /** The backfill's progress, for /networks and the dashboard. */
  setBackfill(status: BackfillStatus): void {
    this.#backfill = Object.freeze({ ...status });
    this.#status = this.#makeStatus();
    this.#changed = true;
  }

  /** The outlook backfill's progress (the hours before the history), for /networks. */
  setOutlookBackfill(status: OutlookBackfillStatus): void {
    this.#outlookBackfill = Object.freeze({ ...status });
    this.#status = this.#makeStatus();
    this.#changed = true;
  }

  /** The history's part of the chain's next publication; clears what changed. */
  part(): HistoryPart {
    if (this.#snapshotStale) {
      const snapshot = snapshotOfHistory(this.#plan.chainId, this.#history, this.#tip, this.#plan.blockTimeMs);
      if (snapshot === undefined || this.#snapshot === undefined || !sameSnapshot(snapshot, this.#snapshot)) this.#snapshot = snapshot;
      this.#snapshotStale = false;
    }
    const changed = this.#changed;
    this.#changed = false;
    return { snapshot: this.#snapshot, status: this.#status, changed, hourlySummaries: this.#summaries.list };
  }

  #write(written: RecordWrite, nowMs: number): void {
    const write = this.#blobMarket ? written : withoutBlobFields(written);
    let change: HistoryChange;
    // No header dated more than MAX_HEADER_AHEAD_SECONDS after the clock dates a block, whoever brought it (the
    // backfill's pages allow more before they call an endpoint a liar): it would date the blocks around it there too.
    const latestSeconds = nowMs / 1_000 + MAX_HEADER_AHEAD_SECONDS;
    const dated = write.anchors?.some((anchor) => anchor.timestamp > latestSeconds)
      ? { ...write, anchors: write.anchors.filter((anchor) => anchor.timestamp <= latestSeconds) }
      : write;
    try {
      change = this.#history.write(dated, nowMs / 1_000);
    } catch (error) {
      this.#logger.warn("blocks refused by the history", { chainId: this.#plan.chainId, error: String(error) });
      return;
    }
    if (change.changedFrom === undefined && change.anchors.length === 0) return;
    this.#snapshotStale = true;
    this.#changed = true;
    this.#persist(dated, change, nowMs);
    this.#markDirtyHours(change);
    this.#settleHours(nowMs);
    this.#status = this.#makeStatus();
  }

  /**
   * Marks the hours of the blocks a write changed or anchored, and of the held blocks just beside them: an hour's
   * summary needs the block after it (a new hour's first block makes the one before it whole) and the block before it.
   */
  #markDirtyHours(change: HistoryChange): void {
    let low = change.changedFrom;
    let high = change.changedTo;
    for (const anchor of change.anchors) {
      if (low === undefined || anchor.block < low) low = anchor.block;
      if (high === undefined || anchor.block > high) high = anchor.block;
    }
    if (low === undefined || high === undefined) return;
    const from = timestampOf(this.#history, low - 1n) ?? timestampOf(this.#history, low);
    const to = timestampOf(this.#history, high + 1n) ?? timestampOf(this.#history, high);
    if (from === undefined || to === undefined) return;
    for (let start = hourStartOf(from); start <= hourStartOf(to); start += HOUR_SECONDS) {
      if (this.#dirtyHours.size >= MAX_DIRTY_HOURS) break;
      this.#dirtyHours.add(start);
    }
  }

  /**
   * Summarises the dirty hours that are closed, each from every one of its blocks where all are held (an hour not
   * wholly held keeps the summary it has); a summary that changed goes into the book and the store. Prunes the
   * summaries beyond the summary horizon, at most every PRUNE_EVERY_MS.
   */
  #settleHours(nowMs: number): void {
    const closedBefore = closedHoursBefore(this.#history, this.#safeDepth);
    if (closedBefore === undefined) return;
    const built: HourlySummary[] = [];
    for (const start of this.#dirtyHours) {
      if (start >= closedBefore) continue;
      this.#dirtyHours.delete(start);
      const summary = wholeHourSummary(this.#history, start);
      if (summary !== undefined) built.push(summary);
    }
    this.#keepBuilt(built);
    if (nowMs - this.#lastSummaryPruneMs >= PRUNE_EVERY_MS) {
      this.#lastSummaryPruneMs = nowMs;
      this.#pruneSummaries();
    }
  }

  /**
   * After a restart: every closed hour of the held history whose blocks are all held and that has no summary, or one
   * built from fewer blocks, is summarised from them.
   */
  #summarizeHeldHours(): void {
    const oldest = this.#history.oldest;
    const closedBefore = closedHoursBefore(this.#history, this.#safeDepth);
    if (oldest === undefined || closedBefore === undefined) return;
    const built: HourlySummary[] = [];
    for (let start = hourStartOf(oldest.timestamp); start < closedBefore; start += HOUR_SECONDS) {
      const fees = wholeHourFees(this.#history, start);
      if (fees === undefined) continue;
      const held = this.#summaries.get(start);
      if (held !== undefined && held.blocks >= fees.length && !held.sampled) continue;
      built.push(Object.freeze(summarizeHour(start, fees)));
    }
    this.#keepBuilt(built);
    this.#pruneSummaries();
  }

  #keepBuilt(built: readonly HourlySummary[]): void {
    const changed = built.filter((summary) => this.#summaries.put([summary]));
    if (changed.length === 0) return;
    this.#changed = true;
    // Through the StoreWriter: the service's listener hears them too, and finds the book already holds them.
    this.#store?.writeHourlySummaries(this.#plan.chainId, changed);
  }

  /** Drops the summaries of hours older than the summary horizon, counted back from the newest block's time. */
  #pruneSummaries(): void {
    const newest = this.#history.newest;
    if (newest === undefined) return;
    const before = hourStartOf(newest.timestamp - this.#summaryHorizon.seconds);
    if (this.#summaries.pruneBefore(before)) this.#changed = true;
    this.#store?.pruneHourlySummaries(this.#plan.chainId, before);
  }

  /**
   * Writes what changed (new or different fees, and the anchors kept) to the store; the store never stops the feed and
   * never waits: what the file does not take now waits in the StoreWriter's queue.
   */
  #persist(write: RecordWrite, change: HistoryChange, nowMs: number): void {
    if (!this.#store) return;
    if (change.changedFrom !== undefined && change.changedTo !== undefined) {
      const offset = Number(change.changedFrom - write.firstBlock);
      const count = Number(change.changedTo - change.changedFrom) + 1;
      const fees = write.baseFeesWei.slice(offset, offset + count);
      const anchors = change.anchors.filter((anchor) => anchor.block >= change.changedFrom! && anchor.block <= change.changedTo!);
      const extras = {
        ...(write.gasUsedRatios?.length === write.baseFeesWei.length && write.gasUsedRatios.every(storableRatio)
          ? { gasUsedRatios: write.gasUsedRatios.slice(offset, offset + count) }
          : {}),
        // The store keeps known blob base fees only: a write with one not known (-1) keeps none of them.
        ...(write.blobBaseFeesWei?.length === write.baseFeesWei.length && write.blobBaseFeesWei.every((fee) => fee >= 0n)
          ? { blobBaseFeesWei: Array.from(write.blobBaseFeesWei.slice(offset, offset + count)) }
          : {}),
      };
      this.#store.write(this.#plan.chainId, change.changedFrom, { baseFeesWei: fees, anchors, ...extras });
    }
    // Anchors of blocks already stored (a header seen after its block's fee) still make its time exact there.
    for (const anchor of change.anchors) {
      if (change.changedFrom !== undefined && anchor.block >= change.changedFrom && anchor.block <= change.changedTo!) continue;
      const fee = this.#history.baseFeeAt(anchor.block);
      if (fee !== undefined) this.#store.write(this.#plan.chainId, anchor.block, { baseFeesWei: [fee], anchors: [anchor] });
    }
    if (nowMs - this.#lastPruneMs >= PRUNE_EVERY_MS) {
      this.#lastPruneMs = nowMs;
      // The store keeps what memory keeps: memory drops whole chunks beyond the horizon.
      const oldest = this.#history.oldest?.block;
      if (oldest !== undefined) this.#store.prune(this.#plan.chainId, oldest);
    }
  }

  #makeStatus(): HistoryStatus {
    const oldest = this.#history.oldest;
    const newest = this.#history.newest;
    return Object.freeze({
      horizon: this.#horizonText,
      blocks: this.#history.blocksHeld,
      oldestBlock: oldest?.block.toString() ?? null,
      newestBlock: newest?.block.toString() ?? null,
      oldestTime: oldest === undefined ? null : Math.floor(oldest.timestamp),
      newestTime: newest === undefined ? null : Math.floor(newest.timestamp),
      backfill: this.#backfill,
      ...(this.#outlookBackfill === undefined ? {} : { outlookBackfill: this.#outlookBackfill }),
      store: this.#store?.health(this.#plan.chainId) ?? NO_STORE,
      summaries: Object.freeze({ horizon: this.#summaryHorizon.text, hours: this.#summaries.size, oldestStart: this.#summaries.list[0]?.start ?? null }),
    });
  }
}

/** Two snapshots say the same (a write that changed only timestamps, or nothing the snapshot shows). */
function sameSnapshot(a: FeeSnapshot, b: FeeSnapshot): boolean {
  return (
    a.newestBlock === b.newestBlock &&
    a.currentBaseFeeWei === b.currentBaseFeeWei &&
    a.statsFromBlock === b.statsFromBlock &&
    a.statsToBlock === b.statsToBlock &&
    a.statsBlocks === b.statsBlocks &&
    a.baseFeePercentileWei === b.baseFeePercentileWei &&
    a.busyThresholdWei === b.busyThresholdWei &&
    a.minWei === b.minWei &&
    a.maxWei === b.maxWei &&
    a.recentTips === b.recentTips &&
    a.historyWei.length === b.historyWei.length &&
    a.historyWei.every((fee, i) => fee === b.historyWei[i]) &&
    sameBlobPart(a.blob, b.blob)
  );
}

function sameBlobPart(a: BlobFeeSnapshot | undefined, b: BlobFeeSnapshot | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.currentWei === b.currentWei &&
    a.percentileWei === b.percentileWei &&
    a.busyThresholdWei === b.busyThresholdWei &&
    a.minWei === b.minWei &&
    a.maxWei === b.maxWei &&
    a.statsBlocks === b.statsBlocks &&
    a.statsFromBlock === b.statsFromBlock &&
    a.statsToBlock === b.statsToBlock &&
    a.historyWei.length === b.historyWei.length &&
    a.historyWei.every((fee, i) => fee === b.historyWei[i]) &&
    a.gasUsedRatios.every((ratio, i) => ratio === b.gasUsedRatios[i])
  );
}
