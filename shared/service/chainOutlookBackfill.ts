import { OutlookBackfill, type OutlookBackfillOptions, type OutlookBackfillProgress } from "../backfill/outlookBackfill.ts";
import type { ChainHistory } from "../core/history/chainHistory.ts";
import { HOUR_SECONDS, type HourlySummary } from "../core/outlook/hourlySummary.ts";
import type { Logger } from "../log/logger.ts";
import type { ChainEndpoints } from "../rpc/endpoints/chainEndpoints.ts";
import { type ChainPlan, outlookBackfillOf } from "./chainPlan.ts";
import type { ChainRecord } from "./chainRecord.ts";
import type { StoreWriter } from "./storeWriter.ts";

/** Where the chain's hourly summaries are kept: what is held of an hour, and the way to write new ones (the store writer's). */
export interface OutlookHours {
  /** The summaries held for hours starting in `fromStart..toStart` (both included). */
  held(fromStart: number, toStart: number): readonly Pick<HourlySummary, "start" | "sampled">[];
  write(summaries: readonly HourlySummary[]): void;
}

/**
 * The chain's hours in the history file, through the service's store writer: those held (read once, at the start of a
 * run) and the way to write new ones (in order with the blocks; the chain's record hears of them from the writer).
 */
export function storedOutlookHours(store: StoreWriter, chainId: number): OutlookHours {
  return {
    held: (fromStart, toStart) => store.loadHourlySummaries(chainId).filter((hour) => hour.start >= fromStart && hour.start <= toStart),
    write: (summaries) => store.writeHourlySummaries(chainId, summaries),
  };
}

export interface ChainOutlookBackfillOptions {
  readonly logger: Logger;
  readonly endpoints: ChainEndpoints;
  readonly hours: OutlookHours;
  /** Called after each change of progress, so that the chain's publication follows. */
  readonly republish: () => void;
  readonly runner?: OutlookBackfillOptions["runner"];
}

/**
 * One chain's outlook backfill in the service: once its history backfill has reached the horizon (historyReady),
 * reads the hours of `outlookBackfill` before the history's oldest hour that are not held, through the chain's layer
 * (OutlookBackfill), writes their summaries, and shows its progress in /networks (history.outlookBackfill). One run at
 * a time; a restart runs it again for what is still missing, and a run with nothing missing asks nothing.
 */
export class ChainOutlookBackfill {
  readonly #plan: ChainPlan;
  readonly #record: ChainRecord;
  readonly #options: ChainOutlookBackfillOptions;
  #run: OutlookBackfill | undefined;
  #done = false;
  #stopped = false;

  constructor(plan: ChainPlan, record: ChainRecord, options: ChainOutlookBackfillOptions) {
    this.#plan = plan;
    this.#record = record;
    this.#options = options;
  }

  /** The history reaches its horizon: the outlook may read what lies before it (once per start, until done). */
  historyReady(): void {
    if (this.#stopped || this.#done || this.#run !== undefined) return;
    const { chainId } = this.#plan;
    const history = this.#record.history;
    const oldest = history.oldest;
    // The history's oldest block with an exact timestamp (a page's end): the outlook's seam and its first anchor.
    const anchors = history.edgeAnchors().all;
    const floor = anchors[0];
    if (oldest === undefined || floor === undefined) return;
    const span = outlookBackfillOf(this.#plan);
    const { logger } = this.#options;
    let run: OutlookBackfill;
    try {
      const toTime = Math.floor(floor.timestamp / 3_600) * 3_600;
      run = new OutlookBackfill({
        chainId,
        endpoints: this.#options.endpoints,
        floor,
        floorFee: () => this.#record.heldFeeAt(floor.block),
        anchors,
        spanSeconds: span.seconds,
        blockSpacingSeconds: history.spacingSeconds,
        heldHours: this.#options.hours.held(toTime - span.seconds, toTime),
        ...floorHourFeesOf(history, floor.block, toTime),
        write: (summaries) => this.#options.hours.write(summaries),
        logger,
        onProgress: (progress) => this.#show(progress),
        ...(this.#options.runner === undefined ? {} : { runner: this.#options.runner }),
      });
    } catch (error) {
      logger.warn(`chain ${chainId}: the outlook backfill cannot start: ${String(error)}`, { chainId });
      this.#done = true;
      return;
    }
    this.#run = run;
    this.#show(run.progress);
    void run.run().then(
      (outcome) => {
        this.#run = undefined;
        if (outcome.oldestReached) this.#done = true;
        this.#show(run.progress);
      },
      (error: unknown) => {
        this.#run = undefined;
        logger.warn(`chain ${chainId}: the outlook backfill stopped: ${String(error)}; the next start goes on`, { chainId, error: String(error) });
        this.#show(run.progress);
      },
    );
  }

  /** Stops the run under way, if any, to let the history's backfill run alone; the next historyReady goes on from what it kept. */
  async pause(): Promise<void> {
    const run = this.#run;
    if (run === undefined) return;
    this.#options.logger.info(`chain ${this.#plan.chainId}: the outlook backfill waits for the history backfill`, { chainId: this.#plan.chainId });
    await run.stop();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#run?.stop();
  }

  #show(progress: OutlookBackfillProgress): void {
    if (this.#stopped) return;
    const { running, fromTime, toTime, hoursHeld, hoursWanted } = progress;
    this.#record.setOutlookBackfill({ running, fromTime, toTime, hoursHeld, hoursWanted });
    this.#options.republish();
  }
}

/**
 * The history's fees of the hour starting at `start` from `floorBlock` up, oldest first, when it holds every one of
 * them (no gap, and a block after the hour held): with the blocks below the floor, the outlook makes that hour whole.
 */
function floorHourFeesOf(history: ChainHistory, floorBlock: bigint, start: number): { floorHourFees?: readonly bigint[] } {
  const end = start + HOUR_SECONDS;
  const fees: bigint[] = [];
  let next = floorBlock;
  for (const run of history.runsBetweenBlocks(floorBlock, floorBlock + 100_000n)) {
    if (run.firstBlock !== next) return {};
    for (let i = 0; i < run.timestamps.length; i++) {
      if (run.timestamps[i]! >= end) return fees.length > 0 ? { floorHourFees: fees } : {};
      fees.push(run.baseFeesWei[i]!);
    }
    next = run.firstBlock + BigInt(run.timestamps.length);
  }
  return {};
}
