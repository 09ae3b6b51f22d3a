import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import type { EndpointStatus } from "../wire/networkStatus.ts";
import type { FeedPhase, FeedReport } from "./feedReport.ts";

/** What a feed knows at one moment, before it is made into a report. */
export interface FeedView {
  readonly snapshot: FeeSnapshot | undefined;
  readonly confirmedAt: number | undefined;
  readonly phase: FeedPhase;
  readonly endpoints: readonly EndpointStatus[];
}

/** The report of a feed that has not published anything yet: syncing, no data, its endpoints as configured. */
export function firstFeedReport(chainId: number, endpoints: readonly EndpointStatus[]): FeedReport {
  return freezeReport({
    chainId,
    snapshot: undefined,
    confirmedAt: undefined,
    phase: "syncing",
    endpoints: freezeStatuses(endpoints),
    changed: { blocks: false, health: false },
  });
}

/**
 * The report that follows `previous` for what the feed knows now, or undefined when nothing changed. Blocks changed
 * when the snapshot is another object (the fee-history state replaces it only on a change); health changed when the
 * phase or any endpoint's status did. What did not change is the previous report's own object, so readers may compare
 * by identity.
 */
export function nextFeedReport(previous: FeedReport, now: FeedView): FeedReport | undefined {
  const blocks = now.snapshot !== previous.snapshot;
  const endpointsChanged = !sameStatuses(previous.endpoints, now.endpoints);
  const health = now.phase !== previous.phase || endpointsChanged;
  if (!blocks && !health && now.confirmedAt === previous.confirmedAt) return undefined;
  return freezeReport({
    chainId: previous.chainId,
    snapshot: now.snapshot,
    confirmedAt: now.confirmedAt,
    phase: now.phase,
    endpoints: endpointsChanged ? freezeStatuses(now.endpoints) : previous.endpoints,
    changed: { blocks, health },
  });
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
