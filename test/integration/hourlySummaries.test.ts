// The hourly summaries of the real service (npm run serve's startService) following a chain through the project's
// stand-in JSON-RPC server (test/support/syntheticChainServer.ts: blocks dated and priced as the test says, so that
// every hour's blocks are known here): once the history is backfilled, /hourlyStats answers every closed hour wholly
// held exactly as summarizeHour makes it from the chain's own blocks, and after a restart on the same history file the
// summaries come back from it, the same.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { hourStartOf, type HourlySummary } from "../../shared/core/outlook/hourlySummary.ts";
import { summarizeHour } from "../../shared/core/outlook/summarizeHour.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import type { HourlyStats } from "../../shared/wire/hourlyStats.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { startSyntheticChainServer } from "../support/syntheticChainServer.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const CHAIN = 7_030;
const HEAD = 2_500n;
/** Block 0 at 00:07 on 2026-01-01, 12 s apart: hours 1 to 7 hold 300 blocks each. */
const T0 = 1_767_225_600 + 420;
const timeOf = (block: bigint) => T0 + 12 * Number(block);
const dir = mkdtempSync(join(tmpdir(), "gasfees-hourly-summaries-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function weiOf(gwei: string): bigint {
  const [whole = "", fraction = ""] = gwei.split(".");
  return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
}

const summaryOfRow = (row: HourlyStats[number]): HourlySummary => ({
  start: row.start,
  blocks: row.blocks,
  sampled: row.sampled,
  min: weiOf(row.min),
  p10: weiOf(row.p10),
  p50: weiOf(row.p50),
  p90: weiOf(row.p90),
  max: weiOf(row.max),
  last: weiOf(row.last),
});

test("the service summarises every closed hour of the chain's blocks exactly, and a restart reads them back", { timeout: 180_000 }, async (t) => {
  const server = await startSyntheticChainServer({ chainId: CHAIN, head: HEAD, timestampOf: timeOf });
  t.after(() => server.close());
  // Each closed hour (its end 64 blocks, the reorg depth, below the head) after block 0's, from the chain's own fees.
  const closedBefore = hourStartOf(timeOf(HEAD - 64n));
  const expected: HourlySummary[] = [];
  for (let start = hourStartOf(T0) + 3_600; start < closedBefore; start += 3_600) {
    const fees: bigint[] = [];
    for (let block = 0n; block <= HEAD; block++) if (hourStartOf(timeOf(block)) === start) fees.push(server.baseFeeOf(block));
    expected.push(summarizeHour(start, fees));
  }
  assert.equal(expected.length, 7);

  const plan: ChainPlan = { chainId: CHAIN, name: "Stand-in", rpcUrls: [server.url], blockTimeMs: 12_000 };
  const historyFile = join(dir, "history.sqlite");
  const backfill = { requestsPerSecond: 1_000 };
  const hourlyStats = async (url: string) => {
    const answer = await callApi<HourlyStats>(url, `/networks/${CHAIN}/hourlyStats`, KEY);
    return answer.status === 200 ? answer.body : undefined;
  };

  const first = await startLocalService([plan], [{ key: KEY }], { historyFile, backfill });
  try {
    const rows = await waitFor(
      "every closed hour summarised",
      async () => {
        const held = await hourlyStats(first.url);
        return held !== undefined && held.length >= expected.length ? held : undefined;
      },
      120_000,
    );
    assert.deepEqual(rows.map(summaryOfRow), expected);
    const status = (await callApi<NetworkStatus[]>(first.url, "/networks", KEY)).body.find((network) => network.chainId === CHAIN)!;
    assert.deepEqual(status.history.summaries, { horizon: "52w", hours: 7, oldestStart: expected[0]!.start });
  } finally {
    await first.stop();
  }

  const second = await startLocalService([plan], [{ key: KEY }], { historyFile, backfill });
  try {
    const rows = await waitFor("the summaries back", async () => {
      const held = await hourlyStats(second.url);
      return held !== undefined && held.length >= expected.length ? held : undefined;
    });
    assert.deepEqual(rows.map(summaryOfRow), expected);
  } finally {
    await second.stop();
  }
});
