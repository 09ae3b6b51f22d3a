import { createHash } from "node:crypto";
import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import { RECENT_BLOCKS, suggestedGasFeesBody, suggestGasFees, type SuggestionInput } from "../core/fees/suggestedGasFees.ts";

/** A response body serialised once, with its strong ETag. */
export interface PreparedBody {
  readonly body: Buffer;
  /** A strong entity tag, quoted: `"<base64url of the body's SHA-256, 128 bits>"`. */
  readonly etag: string;
}

/** The bodies of the fee endpoints for one snapshot, in the contract's exact shapes. */
export interface PreparedResponses {
  readonly busyThreshold: PreparedBody;
  readonly baseFeePercentile: PreparedBody;
  readonly baseFeeHistory: PreparedBody;
  /** The hosted Gas API's suggestedGasFees (beyond the specification). */
  readonly suggestedGasFees: PreparedBody;
}

// Snapshots are immutable and replaced on each change, so the object itself is the cache key, and a
// replaced snapshot's bodies are collected with it.
const cache = new WeakMap<FeeSnapshot, PreparedResponses>();

/** The bodies for `snapshot`, serialised on first use only. Call it when a snapshot appears to prepare eagerly. */
export function preparedResponsesOf(snapshot: FeeSnapshot): PreparedResponses {
  let prepared = cache.get(snapshot);
  if (prepared === undefined) {
    prepared = Object.freeze({
      busyThreshold: preparedJson({ busyThreshold: toGweiString(snapshot.busyThresholdWei) }),
      baseFeePercentile: preparedJson({ baseFeePercentile: toGweiString(snapshot.baseFeePercentileWei) }),
      baseFeeHistory: preparedJson(snapshot.historyWei.map(toGweiString)),
      suggestedGasFees: preparedJson(suggestedGasFeesBody(suggestGasFees(suggestionInputOf(snapshot)))),
    });
    cache.set(snapshot, prepared);
  }
  return prepared;
}

/** What the estimation reads from a snapshot. */
export function suggestionInputOf(snapshot: FeeSnapshot): SuggestionInput {
  return {
    estimatedBaseFeeWei: snapshot.currentBaseFeeWei,
    recentTips: snapshot.recentTips,
    recentBaseFeesWei: snapshot.historyWei.slice(-RECENT_BLOCKS),
    windowMinWei: snapshot.minWei,
    windowMaxWei: snapshot.maxWei,
    networkCongestion: snapshot.networkCongestion,
    blockTimeMs: snapshot.blockTimeMs,
  };
}

export function preparedJson(value: unknown): PreparedBody {
  const body = Buffer.from(JSON.stringify(value), "utf8");
  return Object.freeze({ body, etag: strongEtagOf(body) });
}

export function strongEtagOf(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
}
