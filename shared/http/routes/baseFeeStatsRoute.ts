import { toGweiString } from "../../core/fees/gwei.ts";
import { bucketStats, bucketStatsInSlices, type BucketSummary } from "../../core/history/bucketStats.ts";
import { MAX_DURATION_SECONDS, parseWindowSpec, type WindowSpec } from "../../core/history/duration.ts";
import type { HistoryView } from "../../core/history/historyView.ts";
import { SlicedHistoryRead } from "../../core/history/slicedHistoryRead.ts";
import { HISTORY_BLOCKS } from "../../core/fees/historyLength.ts";
import { BUCKET_PERCENTILES, type BaseFeeStats, type BaseFeeStatsBucket, MAX_STATS_BUCKETS } from "../../wire/baseFeeStats.ts";
import { ApiError } from "../apiErrors.ts";
import { disputedHeaderList } from "../disputedHeader.ts";
import { chainOfPath } from "../chainOfPath.ts";
import type { JsonReply, JsonRoute, QueryParameter, RouteContext } from "../routeTypes.ts";
import { bucketLayoutOf, MAX_UNIX_SECONDS, parseStatsQuery, type StatsRange } from "../statsQuery.ts";

/** The window used when a chain's `statsWindow` cannot be read (it always can: the settings schema checks it). */
const FALLBACK_WINDOW: WindowSpec = { kind: "blocks", blocks: HISTORY_BLOCKS, text: `${HISTORY_BLOCKS} blocks` };

const UNIX_SECONDS = { type: "string", pattern: "^(0|[1-9][0-9]*)$" } as const;

/** baseFeeStats' query parameters, for the OpenAPI description. */
const STATS_QUERY: readonly QueryParameter[] = [
  {
    name: "window",
    description:
      "How far back from the newest block held: a whole number and a unit s, m, h, d or w, from 1s to 366d (1h, 24h, 7d). Not with from or to. Without window, from and to: the chain's statistics window (its statsWindow in GET /networks).",
    schema: { type: "string", pattern: "^[1-9][0-9]{0,8}[smhdw]$" },
  },
  {
    name: "from",
    description: `The range's start, unix seconds (0 to ${MAX_UNIX_SECONDS}), included; default the oldest block held.`,
    schema: UNIX_SECONDS,
  },
  {
    name: "to",
    description: `The range's end, unix seconds (0 to ${MAX_UNIX_SECONDS}), included; default the newest block held. Not before from.`,
    schema: UNIX_SECONDS,
  },
  {
    name: "buckets",
    description: `How many buckets of equal length (to whole seconds) cut the range: 1 to ${MAX_STATS_BUCKETS}, and at most one per second of the range; default 1. Not with bucket.`,
    schema: { type: "string", pattern: "^[1-9][0-9]{0,3}$" },
  },
  {
    name: "fee",
    description:
      "Which fee the buckets summarise: base (the base fee, the default) or blob (the blob base fee of EIP-4844: only the blocks that have one are counted). blob on a chain without blob fees is 422 NO_BLOB_FEE.",
    schema: { type: "string", enum: ["base", "blob"] },
  },
  {
    name: "bucket",
    description: `Each bucket's length in seconds (1 to ${MAX_DURATION_SECONDS}), from the range's start on; the last one ends at the range's end. At most ${MAX_STATS_BUCKETS} buckets. Not with buckets.`,
    schema: { type: "string", pattern: "^[1-9][0-9]{0,7}$" },
  },
];

/**
 * `GET /networks/{chainId}/baseFeeStats`: the held history summarised in time buckets (CONTRACT.md). Computed at each
 * request from the history's runs, read in slices between turns of the event loop, one scan at a time, each costing its
 * key a request per 32,768 blocks read (historyScans.ts): a week of a 0.25 s chain is about 50 ms of CPU that no other
 * client waits behind (`npm run bench -- stats`).
 */
export const BASE_FEE_STATS_ROUTE: JsonRoute = {
  kind: "json",
  name: "getBaseFeeStats",
  summary:
    "The held history in time buckets, oldest first: each bucket's block count, first and last block, and min, p10, p25, p50, p75, p90 and max of its base fees (or with fee=blob its blob base fees) in Gwei (nearest rank). " +
    "A block belongs to the bucket holding its timestamp rounded down to the second: buckets are [start, end), the last one [start, end]. A bucket without blocks has only start, end and blocks (0). " +
    "Each 32,768 blocks read cost the key one more request of its rate limit; at most 64 of these requests run or wait at once (429 beyond).",
  path: "/networks/{chainId}/baseFeeStats",
  auth: "key",
  query: STATS_QUERY,
  extraErrors: ["INVALID_QUERY", "NO_BLOB_FEE"],
  response: { schema: "BaseFeeStats" },
  reply: (context) => {
    const publication = chainOfPath(context, "base fee");
    // The query is read before the data is looked for: a malformed query is told even while there is no data.
    const query = parseStatsQuery(context.target);
    chainOfPath(context, "held data");
    // A chain whose data has no blob fee has none to summarise (while only the stored history is held, its buckets say).
    if (query.fee === "blob" && publication.snapshot !== undefined && publication.snapshot.blob === undefined) {
      throw new ApiError("NO_BLOB_FEE", { chainId: context.params["chainId"] ?? "" });
    }
    const history = context.resources.source.history(publication.chainId);
    const { fromSeconds, toSeconds } = rangeOf(query.range, history, publication.status.statsWindow, context);
    const layout = bucketLayoutOf(fromSeconds, toSeconds, query.division);
    const answer = (buckets: readonly BucketSummary[]): JsonReply => {
      const body: BaseFeeStats = buckets.map(wireBucket);
      return { body: Buffer.from(JSON.stringify(body)), headers: disputedHeaderList(publication) };
    };
    if (history === undefined) return answer(bucketStats([], layout, BUCKET_PERCENTILES));
    const { scans } = context.resources;
    // A block at toSeconds + 0.5 is in the range's last second: the read ends one second past `toSeconds`.
    const read = new SlicedHistoryRead(history, fromSeconds, toSeconds + 1, query.fee);
    const steps = bucketStatsInSlices(read, layout, () => scans.bucketScratch(BUCKET_PERCENTILES), scans.limits.sliceBlocks);
    return {
      deferred: async (abandoned) => {
        const buckets = await scans.run(context.keyId, steps, abandoned);
        return buckets === undefined ? undefined : answer(buckets);
      },
    };
  },
};

/**
 * The range in whole unix seconds. The history's ends are its oldest and newest blocks' seconds; with no block held,
 * the current second stands in for both (the buckets then say `"blocks":0`).
 */
function rangeOf(
  range: StatsRange,
  history: HistoryView | undefined,
  statsWindow: string,
  { nowMs }: RouteContext,
): { fromSeconds: number; toSeconds: number } {
  const newest = history?.newest;
  const newestSeconds = newest === undefined ? Math.floor(nowMs / 1000) : Math.floor(newest.timestamp);
  const oldestSeconds = history?.oldest === undefined ? newestSeconds : Math.floor(history.oldest.timestamp);
  const endingAtNewest = (seconds: number) => ({ fromSeconds: Math.max(0, newestSeconds - seconds), toSeconds: newestSeconds });
  switch (range.kind) {
    case "window":
      return endingAtNewest(range.seconds);
    case "between": {
      const toSeconds = range.toSeconds ?? Math.max(newestSeconds, range.fromSeconds ?? 0);
      return { fromSeconds: range.fromSeconds ?? Math.min(oldestSeconds, toSeconds), toSeconds };
    }
    case "statsWindow": {
      const window = parseWindowSpec(statsWindow) ?? FALLBACK_WINDOW;
      if (window.kind === "duration") return endingAtNewest(window.seconds);
      if (history === undefined || newest === undefined) return { fromSeconds: newestSeconds, toSeconds: newestSeconds };
      return { fromSeconds: Math.floor(startOfNewestBlocks(history, window.blocks)), toSeconds: newestSeconds };
    }
  }
}

/**
 * The timestamp of the `count`-th newest block held (the oldest held when there are fewer): the start of a
 * block-count window. Looks back over a time span guessed from the history's mean spacing, doubling it until the span
 * holds `count` blocks, so that it reads about `count` blocks rather than the whole history.
 */
function startOfNewestBlocks(history: HistoryView, count: number): number {
  const oldest = history.oldest!;
  const newest = history.newest!;
  if (count >= history.blocksHeld) return oldest.timestamp;
  const meanSpacingSeconds = (newest.timestamp - oldest.timestamp) / Math.max(1, history.blocksHeld - 1);
  let spanSeconds = meanSpacingSeconds * count * 1.25 + 1;
  for (;;) {
    const fromSeconds = Math.max(oldest.timestamp, newest.timestamp - spanSeconds);
    let held = 0;
    for (const run of history.runs(fromSeconds, newest.timestamp)) held += run.timestamps.length;
    if (held >= count || fromSeconds === oldest.timestamp) {
      let skip = Math.max(0, held - count);
      for (const run of history.runs(fromSeconds, newest.timestamp)) {
        if (skip < run.timestamps.length) return run.timestamps[skip]!;
        skip -= run.timestamps.length;
      }
      return oldest.timestamp;
    }
    spanSeconds *= 2;
  }
}

function wireBucket({ startSeconds, endSeconds, blocks, fees }: BucketSummary): BaseFeeStatsBucket {
  if (fees === undefined) return { start: startSeconds, end: endSeconds, blocks };
  const [p10, p25, p50, p75, p90] = fees.percentilesWei.map(toGweiString);
  return {
    start: startSeconds,
    end: endSeconds,
    blocks,
    fromBlock: fees.fromBlock.toString(),
    toBlock: fees.toBlock.toString(),
    min: toGweiString(fees.minWei),
    p10,
    p25,
    p50,
    p75,
    p90,
    max: toGweiString(fees.maxWei),
  };
}
