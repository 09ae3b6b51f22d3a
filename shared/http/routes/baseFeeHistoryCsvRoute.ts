import type { ServerResponse } from "node:http";
import { toGweiString } from "../../core/fees/gwei.ts";
import { ratioOfParts } from "../../core/history/blockColumns.ts";
import type { HistoryView } from "../../core/history/historyView.ts";
import { SlicedHistoryRead } from "../../core/history/slicedHistoryRead.ts";
import { disputedHeader } from "../disputedHeader.ts";
import { chainOfPath } from "../chainOfPath.ts";
import type { HistoryScans } from "../historyScans.ts";
import type { QueryParameter, StreamRoute } from "../routeTypes.ts";
import { MAX_UNIX_SECONDS, parseCsvQuery } from "../statsQuery.ts";

export const CSV_HEADER = "block,timestamp,base_fee_gwei,blob_base_fee_gwei,gas_used_ratio\n";
/** Lines are gathered into pieces of this many blocks (about 80 KB, half a millisecond), one per write and turn of the event loop. */
const PIECE_BLOCKS = 2048;

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
 * are made a piece per turn of the event loop, only while the client takes them (the socket's backpressure), so a week
 * of a fast chain is never held in memory whole nor holds the loop; a client that disconnects ends it.
 */
export const BASE_FEE_HISTORY_CSV_ROUTE: StreamRoute = {
  kind: "stream",
  name: "getBaseFeeHistoryCsv",
  summary:
    "The held history as CSV, oldest first: a header `block,timestamp,base_fee_gwei,blob_base_fee_gwei,gas_used_ratio`, then one line per block held whose timestamp, rounded down to the whole second (as written), lies in [from, to]; base fees and blob base fees in Gwei, exact; the gas-used ratio to 1/10,000 (as the history keeps it); a blob base fee or ratio not known is empty. Streamed. Each 32,768 blocks read cost the key one more request of its rate limit.",
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
    res.writeHead(200, { ...headers, ...disputedHeader(publication), "Content-Type": "text/csv; charset=utf-8", "Cache-Control": "no-store" });
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
    streamCsvLines(res, history, fromSeconds, toSeconds, context.resources.scans, context.keyId);
  },
};

/**
 * Writes the lines of the blocks whose second lies in `[fromSeconds, toSeconds]`, then ends `res`: a piece of
 * PIECE_BLOCKS lines per turn of the event loop while the socket takes them, and after 'drain' once it asks to wait, so
 * that a fast reader never holds the loop and a slow one holds nothing. The blocks read are charged to the key
 * (historyScans.ts). Nothing runs after the client left.
 */
function streamCsvLines(
  res: ServerResponse,
  history: HistoryView,
  fromSeconds: number,
  toSeconds: number,
  scans: HistoryScans,
  keyId: string | undefined,
): void {
  // Timestamps below toSeconds + 1 have a second at or below toSeconds.
  const read = new SlicedHistoryRead(history, fromSeconds, toSeconds + 1);
  const step = () => {
    if (res.destroyed) return;
    try {
      let piece = "";
      const blocks = read.next(PIECE_BLOCKS, ({ firstBlock, timestamps, baseFeesWei, blobBaseFeesWei, gasUsedParts }) => {
        const first = Number(firstBlock);
        for (let index = 0; index < timestamps.length; index++) {
          const blobFee = blobBaseFeesWei?.[index];
          const ratio = gasUsedParts === undefined ? undefined : ratioOfParts(gasUsedParts[index]!);
          piece += `${first + index},${Math.floor(timestamps[index]!)},${toGweiString(baseFeesWei[index]!)},${blobFee === undefined || blobFee < 0n ? "" : toGweiString(blobFee)},${ratio ?? ""}\n`;
        }
      });
      scans.chargeBlocks(keyId, blocks);
      if (read.done) res.end(piece);
      else if (res.write(piece)) setImmediate(step);
      // 'drain' comes on the same turn when the kernel took the piece at once (a fast local reader): the next piece
      // still waits for the next turn, or the export would hold the loop for as long as the kernel takes its bytes.
      else res.once("drain", () => setImmediate(step));
    } catch (error) {
      // A bug: the answer cannot be finished, and its client must not take a cut-off file for a whole one.
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  };
  step();
}
