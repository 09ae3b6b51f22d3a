import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import type { EndpointCallCount } from "../rpc/endpoints/endpointPool.ts";
import type { FeedReport } from "../rpc/feed/feedReport.ts";
import { type Congestion, congestionOf } from "../wire/congestion.ts";
import type { HistoryStatus, NetworkStatus } from "../wire/networkStatus.ts";
import type { ChainMoney } from "./chainMoney.ts";
import { type ChainPlan, statsWindowOf } from "./chainPlan.ts";
import { knownBlobSchedule } from "../core/fees/blobFeeRule.ts";
import type { HourlySummary } from "../core/outlook/hourlySummary.ts";

/**
 * Everything the service says about one chain at one moment, made once per change of its feed and then only read:
 * the API (which makes its bodies and headers from these values), the event streams, the alerts, the tray and the
 * metrics all read the same value, and none of them asks the feed anything.
 */
export interface ChainPublication {
  readonly chainId: number;
  readonly name: string;
  readonly blockTimeMs: number;
  /** The statistics, or undefined while the chain has no data. */
  readonly snapshot: FeeSnapshot | undefined;
  /**
   * Epoch ms of the newest new data: when the feed's newest new blocks arrived, or, before any since the start (the
   * history held from before), the newest block's own time. Undefined without data.
   */
  readonly newDataAt: number | undefined;
  readonly congestion: Congestion;
  /** The chain's `GET /networks` entry as of its data; `networkStatusAt` adds the data's age at the time of asking. */
  readonly status: NetworkStatus;
  /** The gas token's price and the rollup's L1 fees as last read (shared/service/costReaders.ts). */
  readonly money: ChainMoney;
  /** What changed since the chain's previous publication; all false when only the time of the newest new data moved. */
  readonly changed: PublicationChanges;
  /** Each endpoint's JSON-RPC calls and failures as of the feed's report (`/metrics`). */
  readonly callCounts: readonly EndpointCallCount[];
  /**
   * The chain's hourly summaries, oldest first (`/hourlyStats`, the outlook): the same array as the previous
   * publication's unless an hour was added, changed or dropped.
   */
  readonly hourlySummaries: readonly HourlySummary[];
}

/**
 * What a publication changed: blocks (the newest blocks), health (state, endpoints), history (window, backfill), money
 * (the price or the L1 fees).
 */
export interface PublicationChanges {
  readonly blocks: boolean;
  readonly health: boolean;
  readonly history: boolean;
  readonly money: boolean;
}

/** The feed's part of a publication: its health and the time of its newest new data, and what changed. */
export type FeedHealth = Pick<FeedReport, "phase" | "endpoints" | "newDataAt" | "callCounts" | "changed" | "disputes">;

/** What the chain's history gives a publication: the snapshot (statistics over its window), and what it holds. */
export interface HistoryPart {
  /** The snapshot made of the chain's history; undefined without data. */
  readonly snapshot: FeeSnapshot | undefined;
  readonly status: HistoryStatus;
  /** The window's statistics or the history's status changed since the previous publication. */
  readonly changed: boolean;
  /** The chain's hourly summaries, oldest first (a new array only when an hour changed). */
  readonly hourlySummaries: readonly HourlySummary[];
}

/** The chain's publication: the feed's health with the history's snapshot and status. */
export function publish(
  plan: ChainPlan,
  report: FeedHealth,
  previous: ChainPublication | undefined,
  history: HistoryPart,
  money: ChainMoney,
): ChainPublication {
  const { snapshot } = history;
  const newestTime = history.status.newestTime;
  const newDataAt = snapshot === undefined ? undefined : (report.newDataAt ?? (newestTime === null ? undefined : newestTime * 1000));
  const gwei = (wei: bigint | undefined) => (wei === undefined ? null : toGweiString(wei));
  const status: NetworkStatus = Object.freeze({
    chainId: plan.chainId,
    name: plan.name,
    state: report.phase,
    newestBlock: snapshot?.newestBlock.toString() ?? null,
    currentBaseFee: gwei(snapshot?.currentBaseFeeWei),
    baseFeePercentile: gwei(snapshot?.baseFeePercentileWei),
    busyThreshold: gwei(snapshot?.busyThresholdWei),
    minBaseFee: gwei(snapshot?.minWei),
    maxBaseFee: gwei(snapshot?.maxWei),
    busy: snapshot ? snapshot.busy : null,
    blobBaseFee: gwei(snapshot?.blob?.currentWei),
    blobBaseFeePercentile: gwei(snapshot?.blob?.percentileWei),
    blobBusyThreshold: gwei(snapshot?.blob?.busyThresholdWei),
    blobBusy: snapshot?.blob ? snapshot.blob.busy : null,
    blobSchedule: snapshot?.blob ? blobScheduleShown(plan.chainId, money) : null,
    historyBlocks: snapshot ? snapshot.historyWei.length : 0,
    statsWindow: statsWindowOf(plan).text,
    statsWindowBlocks: snapshot?.statsBlocks ?? 0,
    statsFromBlock: snapshot?.statsFromBlock.toString() ?? null,
    statsToBlock: snapshot?.statsToBlock.toString() ?? null,
    history: history.status,
    blockTimeMs: plan.blockTimeMs,
    dataAgeMs: snapshot && newDataAt !== undefined ? 0 : null,
    endpoints: report.endpoints,
    // Said only while the endpoints disagree with no majority to settle it.
    ...((report.disputes?.length ?? 0) > 0 ? { disputed: true, disputes: report.disputes } : {}),
    price: money.price?.shown ?? null,
    priceProblem: money.priceProblem,
  });
  return Object.freeze({
    chainId: plan.chainId,
    name: plan.name,
    blockTimeMs: plan.blockTimeMs,
    snapshot,
    newDataAt,
    congestion: congestionOf(status),
    status,
    money,
    changed: { ...report.changed, history: history.changed, money: previous !== undefined && previous.money !== money },
    callCounts: report.callCounts.length > 0 ? report.callCounts : (previous?.callCounts ?? report.callCounts),
    hourlySummaries: history.hourlySummaries,
  });
}

/** The chain's `GET /networks` entry at `nowMs`: its status with the data's age then. */
export function networkStatusAt(publication: ChainPublication, nowMs: number): NetworkStatus {
  const dataAgeMs = dataAgeMsAt(publication, nowMs);
  return dataAgeMs === null ? publication.status : { ...publication.status, dataAgeMs };
}

/**
 * The data's age at `nowMs` (`dataAgeMs` in /networks and on /metrics, `X-Data-Age-Ms` on the fee endpoints): the ms
 * since an RPC endpoint last brought new data; null without data. The one place it is computed.
 */
export function dataAgeMsAt(publication: Pick<ChainPublication, "snapshot" | "newDataAt">, nowMs: number): number | null {
  const { snapshot, newDataAt } = publication;
  return snapshot === undefined || newDataAt === undefined ? null : Math.max(0, Math.round(nowMs - newDataAt));
}

/** The blob schedule /networks shows: the endpoint's eth_config where it answered, else the one known for the chain. */
function blobScheduleShown(chainId: number, money: ChainMoney): { target: number; max: number; source: "eth_config" | "known" } {
  const stated = money.blobSchedule;
  if (stated !== undefined) return Object.freeze({ target: stated.target, max: stated.max, source: "eth_config" });
  const known = knownBlobSchedule(chainId);
  return Object.freeze({ target: known.target, max: known.max, source: "known" });
}
