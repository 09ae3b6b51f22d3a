import type { EndpointStatus } from "../../wire/networkStatus.ts";
import type { FeedReport } from "./feedReport.ts";

/** What a feed knows at one moment, and what it read since its previous report, before it is made into a report. */
export type FeedView = Omit<FeedReport, "chainId" | "changed">;

const NONE: readonly never[] = Object.freeze([]);

/** The report of a feed that has not reported anything yet: syncing, no data, its endpoints as configured. */
export function firstFeedReport(chainId: number, endpoints: readonly EndpointStatus[]): FeedReport {
  return freezeReport({
    chainId,
    blocks: NONE,
    newestBlock: undefined,
    nextBaseFeeWei: undefined,
    nextBlobBaseFeeWei: undefined,
    recentTips: NONE,
    newDataAt: undefined,
    phase: "syncing",
    endpoints: freezeStatuses(endpoints),
    changed: { blocks: false, health: false },
    anchors: NONE,
    callCounts: NONE,
  });
}

/**
 * The report that follows `previous` for what the feed read and knows now, or undefined when there is nothing to
 * tell. Blocks changed when blocks were read, or the next base fee or the tips moved; health changed when the phase
 * or any endpoint's status did; a header seen is told too. What did not change is the previous report's own object,
 * so readers may compare by identity.
 */
export function nextFeedReport(previous: FeedReport, now: FeedView): FeedReport | undefined {
  // Tips are replaced, never mutated: another array is other tips (two empty ones are none either way).
  const tipsChanged = now.recentTips !== previous.recentTips && (now.recentTips.length > 0 || previous.recentTips.length > 0);
  const blocks =
    now.blocks.length > 0 || now.nextBaseFeeWei !== previous.nextBaseFeeWei || now.nextBlobBaseFeeWei !== previous.nextBlobBaseFeeWei || tipsChanged;
  const endpointsChanged = !sameStatuses(previous.endpoints, now.endpoints);
  const disputes = now.disputes ?? NONE;
  const disputesChanged = !sameTexts(previous.disputes ?? NONE, disputes);
  const health = now.phase !== previous.phase || endpointsChanged || disputesChanged;
  if (!blocks && !health && now.anchors.length === 0 && now.newDataAt === previous.newDataAt) return undefined;
  return freezeReport({
    chainId: previous.chainId,
    blocks: now.blocks.length === 0 ? NONE : Object.freeze([...now.blocks]),
    newestBlock: now.newestBlock,
    nextBaseFeeWei: now.nextBaseFeeWei,
    nextBlobBaseFeeWei: now.nextBlobBaseFeeWei,
    recentTips: tipsChanged ? now.recentTips : previous.recentTips,
    newDataAt: now.newDataAt,
    phase: now.phase,
    endpoints: endpointsChanged ? freezeStatuses(now.endpoints) : previous.endpoints,
    changed: { blocks, health },
    anchors: now.anchors.length === 0 ? NONE : Object.freeze([...now.anchors]),
    callCounts: now.callCounts,
    disputes: disputesChanged ? Object.freeze([...disputes]) : (previous.disputes ?? NONE),
  });
}

function sameTexts(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((text, i) => text === b[i]);
}

function freezeReport(report: FeedReport): FeedReport {
  Object.freeze(report.changed);
  return Object.freeze(report);
}

function freezeStatuses(statuses: readonly EndpointStatus[]): readonly EndpointStatus[] {
  return Object.freeze(statuses.map((status) => Object.freeze({ ...status })));
}

function sameStatuses(a: readonly EndpointStatus[], b: readonly EndpointStatus[]): boolean {
  return a.length === b.length && a.every((status, i) => sameStatus(status, b[i]!));
}

/** Field by field, whatever fields a status has (every one is a primitive). */
function sameStatus(a: EndpointStatus, b: EndpointStatus): boolean {
  const aFields: Record<string, unknown> = a;
  const bFields: Record<string, unknown> = b;
  const keys = Object.keys(aFields);
  return keys.length === Object.keys(bFields).length && keys.every((key) => Object.is(aFields[key], bFields[key]));
}
