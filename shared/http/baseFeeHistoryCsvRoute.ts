import type { ServerResponse } from "node:http";
import { toGweiString } from "../core/fees/gwei.ts";
import { ratioOfParts } from "../core/history/blockColumns.ts";
import type { HistoryView } from "../core/history/historyView.ts";
import { chainOfPath } from "./chainOfPath.ts";
import type { QueryParameter, StreamRoute } from "./routeTypes.ts";
import { MAX_UNIX_SECONDS, parseCsvQuery } from "./statsQuery.ts";

export const CSV_HEADER = "block,timestamp,base_fee_gwei,blob_base_fee_gwei,gas_used_ratio\n";
/** Lines are gathered into pieces of about this many characters, each handed to the socket in one write. */
const PIECE_CHARS = 64 * 1024;
/**
 * A paused export resumes from the last block it wrote, looking this far back in time for it: interpolated timestamps
 * may move a little while the export waits (a new anchor), and the blocks before it are skipped by number.
 */
const RESUME_MARGIN_SECONDS = 60;

const CSV_QUERY: readonly QueryParameter[] = [
  {
    name: "from",
    description: `The first second (unix seconds, 0 to ${MAX_UNIX_SECONDS}) whose blocks are written; default the oldest block held.`,
    schema: { type: "string", pattern: "^(0|[1-9][0-9]*)$" },
  },
  {
    name: "to",
    description: `The last second (unix seconds, 0 to ${MAX_UNIX_SECONDS}) whose blocks are written; default the newest block held. Not before from.`,
    schema: { type: "string", pattern: "^(0|[1-9][0-9]*)$" },
  },
];

/**
 * `GET /networks/{chainId}/baseFeeHistory.csv`: the held history as CSV, oldest first (CONTRACT.md). Streamed: lines
 * are made a piece at a time, only while the client takes them (the socket's backpressure), so a week of a fast chain
 * is never held in memory whole; a client that disconnects ends it.
 */
export const BASE_FEE_HISTORY_CSV_ROUTE: StreamRoute = {
  kind: "stream",
  name: "getBaseFeeHistoryCsv",
  summary:
    "The held history as CSV, oldest first: a header `block,timestamp,base_fee_gwei,blob_base_fee_gwei,gas_used_ratio`, then one line per block held whose timestamp, rounded down to the whole second (as written), lies in [from, to]; base fees and blob base fees in Gwei, exact; the gas-used ratio to 1/10,000 (as the history keeps it); a blob base fee or ratio not known is empty. Streamed.",
  path: "/networks/{chainId}/baseFeeHistory.csv",
  auth: "key",
  query: CSV_QUERY,
  extraErrors: ["INVALID_QUERY"],
  textMediaType: "text/csv",
  open: (context) => {
    const publication = chainOfPath(context, "base fee");
    // The query is read before the data is looked for: a malformed query is told even while there is no data.
    const query = parseCsvQuery(context.target);
    chainOfPath(context, "held data");
    const history = context.resources.source.history(publication.chainId);
    const { res, head, headers } = context;
    res.writeHead(200, { ...headers, "Content-Type": "text/csv; charset=utf-8", "Cache-Control": "no-store" });
    if (head) {
      res.end();
      return;
    }
    if (history?.newest === undefined || history.oldest === undefined) {
      res.end(CSV_HEADER);
      return;
    }
    const fromSeconds = query.fromSeconds ?? Math.floor(history.oldest.timestamp);
    const toSeconds = query.toSeconds ?? Math.floor(history.newest.timestamp);
    res.write(CSV_HEADER);
    streamCsvLines(res, history, fromSeconds, toSeconds);
  },
};

/**
 * Writes the lines of the blocks whose second lies in `[fromSeconds, toSeconds]`, then ends `res`. Each step writes
 * pieces until the socket asks it to wait, then leaves the history's iteration (its runs are views that new blocks may
 * overwrite) and resumes on 'drain' from the block after the last one written. Nothing runs after the client left.
 */
function streamCsvLines(res: ServerResponse, history: HistoryView, fromSeconds: number, toSeconds: number): void {
  /** Timestamps below this have a second at or below toSeconds. */
  const endSeconds = toSeconds + 1;
  let resumeSeconds = fromSeconds;
  let lastWrittenBlock = -1;

  const step = () => {
    if (res.destroyed) return;
    try {
      let piece = "";
      for (const run of history.runs(resumeSeconds, endSeconds)) {
        const { timestamps, baseFeesWei, blobBaseFeesWei, gasUsedParts } = run;
        const firstBlock = Number(run.firstBlock);
        for (let index = Math.max(0, lastWrittenBlock + 1 - firstBlock); index < timestamps.length; index++) {
          const timestamp = timestamps[index]!;
          if (timestamp < fromSeconds) continue;
          if (timestamp >= endSeconds) break;
          const blobFee = blobBaseFeesWei?.[index];
          const ratio = gasUsedParts === undefined ? undefined : ratioOfParts(gasUsedParts[index]!);
          piece += `${firstBlock + index},${Math.floor(timestamp)},${toGweiString(baseFeesWei[index]!)},${blobFee === undefined || blobFee < 0n ? "" : toGweiString(blobFee)},${ratio ?? ""}\n`;
          if (piece.length < PIECE_CHARS) continue;
          lastWrittenBlock = firstBlock + index;
          resumeSeconds = Math.max(fromSeconds, timestamp - RESUME_MARGIN_SECONDS);
          const more = res.write(piece);
          piece = "";
          if (!more) {
            res.once("drain", step);
            return;
          }
        }
      }
      res.end(piece);
    } catch (error) {
      // A bug: the answer cannot be finished, and its client must not take a cut-off file for a whole one.
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  };
  step();
}
