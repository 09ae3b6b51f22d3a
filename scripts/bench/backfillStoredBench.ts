// A week of history fetched and kept, end to end, with the 2 calls/s cap lifted: the backfill's pages from a local
// JSON-RPC server (a synthetic chain in this process: no Hardhat chain mines millions of blocks here) written into a
// chain's record, its history in memory and its SQLite store, as the service does. Baseline, same run, same server:
// the same backfill handing its pages to nobody (what fetching alone costs), so the ratio is what keeping them adds.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HistoryStore } from "../../shared/history/historyStore.ts";
import { BackfillRunner, type BackfillRunnerOptions } from "../../shared/backfill/backfillRunner.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import { ChainRecord } from "../../shared/service/chainRecord.ts";
import { StoreWriter } from "../../shared/service/storeWriter.ts";
import { startSyntheticChainServer, type SyntheticChainServer } from "../../test/support/syntheticChainServer.ts";
import type { BenchRow } from "./benchRow.ts";

const WEEK_SECONDS = 7 * 86_400;

async function backfill(chain: SyntheticChainServer, blockTimeMs: number, onPage: BackfillRunnerOptions["onPage"]): Promise<number> {
  const runner = new BackfillRunner({
    chainId: chain.chainId,
    rpcUrls: [chain.url],
    horizonSeconds: WEEK_SECONDS,
    blockTimeMs,
    logger: silentLogger,
    onPage,
    requestsPerSecond: Number.POSITIVE_INFINITY,
  });
  const startedAt = performance.now();
  await runner.run({ heldRanges: [], newest: { block: chain.head, timestamp: chain.timestampOf(chain.head) } });
  return (performance.now() - startedAt) / 1_000;
}

export async function runBackfillStoredBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const { name, blockTimeMs, goal } of [
    { name: "a 12 s chain (~50,000 blocks)", blockTimeMs: 12_000, goal: "< 10 s" },
    { name: "a 0.25 s chain (2.4 million blocks)", blockTimeMs: 250, goal: "< 120 s" },
  ]) {
    // The head mined just now: a backfill refuses timestamps from the future.
    const head = 30_000_000n;
    const headSeconds = Math.floor(Date.now() / 1_000);
    const chain = await startSyntheticChainServer({ head, timestampOf: (block) => headSeconds - Math.ceil((Number(head - block) * blockTimeMs) / 1_000) });
    const dir = mkdtempSync(join(tmpdir(), "gasfees-backfill-stored-"));
    const store = HistoryStore.open(join(dir, "history.sqlite"));
    try {
      const plan = { chainId: chain.chainId, name: "synthetic", rpcUrls: [chain.url], blockTimeMs };
      const record = new ChainRecord(plan, { store: new StoreWriter(store, { logger: silentLogger }), logger: silentLogger });
      const stored = await backfill(chain, blockTimeMs, (page) => record.writePage(page, chain.timestampOf(chain.head) * 1_000));
      const fetched = await backfill(chain, blockTimeMs, () => {});
      const blocks = store.heldRanges(chain.chainId).reduce((sum, range) => sum + Number(range.toBlock - range.fromBlock + 1n), 0);
      rows.push({
        name: `history backfill, fetched and kept (memory and SQLite): 7 days of ${name}, cap lifted (${blocks} blocks stored)`,
        value: stored,
        unit: "s",
        baselineName: "the same backfill, pages kept nowhere",
        baseline: fetched,
        goal,
      });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
      await chain.close();
    }
  }
  return rows;
}
