// The outlook backfill in the real service on a history file: the chain is the project's stand-in JSON-RPC server
// (test/support/syntheticChainServer.ts, a 12 s chain dated now). It starts once the history backfill has reached the
// horizon, reads the hours before it through its own lane while the live feed follows the head, shows its progress in
// /networks, and leaves exact summaries of every block in the file.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { HOUR_SECONDS, hourStartOf, type HourlySummary } from "../../shared/core/outlook/hourlySummary.ts";
import { summarizeHour } from "../../shared/core/outlook/summarizeHour.ts";
import { HistoryStore } from "../../shared/history/historyStore.ts";
import { createLogger } from "../../shared/log/logger.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { startSyntheticChainServer } from "../support/syntheticChainServer.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const CHAIN_ID = 7301;
const HEAD = 60_000n;
const dir = mkdtempSync(join(tmpdir(), "gasfees-outlook-backfill-"));
after(() => rmSync(dir, { recursive: true, force: true }));

async function statusOf(url: string): Promise<NetworkStatus | undefined> {
  const answer = await callApi<NetworkStatus[]>(url, "/networks", KEY);
  return answer.status === 200 ? answer.body.find((network) => network.chainId === CHAIN_ID) : undefined;
}

test(
  "after the history backfill, the service reads the hours before it on its own lane, the head still followed, and keeps each hour's exact summary",
  { timeout: 180_000 },
  async (t) => {
    const now = Math.floor(Date.now() / 1000);
    const server = await startSyntheticChainServer({ chainId: CHAIN_ID, head: HEAD, timestampOf: (block) => now - 12 * Number(HEAD - block) });
    t.after(() => server.close());
    const plan: ChainPlan = {
      chainId: CHAIN_ID,
      name: "Stand-in",
      rpcUrls: [server.url],
      blockTimeMs: 12_000,
      pollIntervalMs: 200,
      historyHorizon: "2h",
      outlookBackfill: "48h",
    };
    const lines: string[] = [];
    const logger = createLogger("info", (line) => lines.push(line));
    const historyFile = join(dir, "history.sqlite");
    // Slow enough (5 requests a second: 48 hours are 15 pages, 45 requests, about 9 s) that the head moves while it reads.
    const service = await startLocalService([plan], [{ key: KEY }], { historyFile, backfill: { requestsPerSecond: 5 } }, logger);
    let stopped = false;
    t.after(async () => {
      if (!stopped) await service.stop();
    });
    const running = await waitFor(
      "the outlook backfill running",
      async () => {
        const status = await statusOf(service.url);
        return status?.history.outlookBackfill?.running === true ? status : undefined;
      },
      120_000,
    );
    // It waited for the history: the history's backfill was done first.
    const historyDone = lines.findIndex((line) => /history backfill done/.test(line));
    const outlookStarts = lines.findIndex((line) => /outlook backfill: 48 of 48 hours before the history to read \(every block\)/.test(line));
    assert.ok(historyDone >= 0 && outlookStarts > historyDone, lines.join(""));
    assert.equal(running.history.backfill.progress, 1);
    const { fromTime, toTime, hoursWanted } = running.history.outlookBackfill!;
    assert.equal(hoursWanted, 48);
    assert.equal(toTime, hourStartOf(Number(running.history.oldestTime)));
    assert.equal(fromTime, toTime - 48 * HOUR_SECONDS);
    // The head moves while it reads: the live feed follows it.
    server.head = HEAD + 3n;
    await waitFor(
      "the new head followed while the outlook reads",
      async () => {
        const status = await statusOf(service.url);
        return status?.newestBlock === String(HEAD + 3n) ? status : undefined;
      },
      60_000,
    ).then((status) => assert.equal(status.history.outlookBackfill?.running, true, "the head was followed during the outlook's run"));
    const done = await waitFor(
      "the outlook backfill done",
      async () => {
        const status = await statusOf(service.url);
        const outlook = status?.history.outlookBackfill;
        return outlook?.running === false && outlook.hoursHeld === 48 ? status : undefined;
      },
      120_000,
    );
    assert.deepEqual(done.history.outlookBackfill, { running: false, fromTime, toTime, hoursHeld: 48, hoursWanted: 48 });
    // The chain's summaries heard of them: the 48 hours before the history, and those of the history's whole hours.
    assert.ok(done.history.summaries.hours >= 48, `${done.history.summaries.hours} hours summarised`);
    assert.equal(done.history.summaries.oldestStart, fromTime);
    await service.stop();
    stopped = true;
    const store = HistoryStore.open(historyFile);
    try {
      // The 48 hours, and the history's oldest hour made whole (its blocks below the history read with them).
      const stored = store.hourlySummaries(CHAIN_ID, fromTime, toTime);
      const expected: HourlySummary[] = [];
      for (let start = fromTime; start <= toTime; start += HOUR_SECONDS) {
        const fees: bigint[] = [];
        for (let block = 0n; block <= HEAD; block++) {
          const time = server.timestampOf(block);
          if (time >= start && time < start + HOUR_SECONDS) fees.push(server.baseFeeOf(block));
        }
        expected.push(summarizeHour(start, fees));
      }
      assert.deepEqual(stored, expected);
    } finally {
      store.close();
    }
  },
);
