// The history's backfill, fetch side only (pages handed to a no-op onPage: the store is measured by its own bench),
// with the 2 calls/s cap lifted against a local JSON-RPC server serving a synthetic chain in this process (no Hardhat
// chain can mine millions of blocks here). Baseline, same run, same server and transport: the same pages fetched by
// bare eth_feeHistory calls one after another, with no timestamps (anchors), checks or planning.
import { silentLogger } from "../../shared/log/logger.ts";
import { BackfillRunner, type BackfillTarget } from "../../shared/backfill/backfillRunner.ts";
import { createRpcConnection } from "../../shared/rpc/connection/rpcConnection.ts";
import { startSyntheticChainServer, type SyntheticChainServer } from "../../test/support/syntheticChainServer.ts";
import type { BenchRow } from "./benchRow.ts";

const WEEK_SECONDS = 7 * 86_400;
const PAGE_BLOCKS = 1024;

function liveWindow(chain: SyntheticChainServer): BackfillTarget {
  return { heldRanges: [{ fromBlock: chain.head - 499n, toBlock: chain.head }], newest: { block: chain.head, timestamp: chain.timestampOf(chain.head) } };
}

/** A week of the chain backfilled with the cap lifted: seconds, pages and calls. */
async function backfillWeek(chain: SyntheticChainServer, blockTimeMs: number, target = liveWindow(chain)) {
  const runner = new BackfillRunner({
    chainId: chain.chainId,
    rpcUrls: [chain.url],
    horizonSeconds: WEEK_SECONDS,
    blockTimeMs,
    logger: silentLogger,
    onPage: () => {},
    requestsPerSecond: Number.POSITIVE_INFINITY,
  });
  const startedAt = performance.now();
  const outcome = await runner.run(target);
  return { seconds: (performance.now() - startedAt) / 1000, outcome };
}

/** The baseline: `pages` bare eth_feeHistory calls of 1,024 blocks walking down from below the live window. */
async function bareFeeHistory(chain: SyntheticChainServer, pages: number): Promise<number> {
  const connection = createRpcConnection(chain.url, { timeoutMs: 10_000 });
  try {
    const startedAt = performance.now();
    for (let page = 0, newest = chain.head - 500n; page < pages; page++, newest -= BigInt(PAGE_BLOCKS)) {
      await connection.request("eth_feeHistory", [`0x${PAGE_BLOCKS.toString(16)}`, `0x${newest.toString(16)}`, []]);
    }
    return (performance.now() - startedAt) / 1000;
  } finally {
    connection.close();
  }
}

export async function runBackfillBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const { name, blockTimeMs, goal } of [
    { name: "a 12 s chain (~50,000 blocks)", blockTimeMs: 12_000, goal: "< 10 s" },
    { name: "a 0.25 s chain (2.4 million blocks)", blockTimeMs: 250, goal: "< 120 s" },
  ]) {
    const head = 30_000_000n;
    // The newest block at 1,700,000,000 (November 2023), the others before it at the chain's spacing.
    const timestampOf = (block: bigint) => 1_700_000_000 - Math.ceil((Number(head - block) * blockTimeMs) / 1000);
    const chain = await startSyntheticChainServer({ head, timestampOf });
    try {
      const { seconds, outcome } = await backfillWeek(chain, blockTimeMs);
      const baselineSeconds = await bareFeeHistory(chain, outcome.pagesFetched);
      rows.push({
        name: `history backfill, fetch side: 7 days of ${name}, cap lifted (${outcome.blocksFetched} blocks, ${outcome.pagesFetched} pages, ${outcome.requests} calls)`,
        value: seconds,
        unit: "s",
        baselineName: "the same pages by bare eth_feeHistory calls, no timestamps or checks",
        baseline: baselineSeconds,
        goal,
      });
    } finally {
      await chain.close();
    }
  }

  // A restart after a day away: what is stored is the first run's pages and live window; a day of blocks came since.
  const chain = await startSyntheticChainServer({ head: 30_000_000n, timestampOf: (block) => 1_400_000_000 + Number(block) * 12 });
  try {
    const stored: { fromBlock: bigint; toBlock: bigint }[] = [];
    const anchors: { block: bigint; timestamp: number }[] = [];
    const first = new BackfillRunner({
      chainId: chain.chainId,
      rpcUrls: [chain.url],
      horizonSeconds: WEEK_SECONDS,
      blockTimeMs: 12_000,
      logger: silentLogger,
      requestsPerSecond: Number.POSITIVE_INFINITY,
      onPage: (page) => {
        stored.push({ fromBlock: page.firstBlock, toBlock: page.firstBlock + BigInt(page.baseFeesWei.length) - 1n });
        anchors.push(...page.anchors);
      },
    });
    const firstLive = liveWindow(chain);
    const full = await first.run(firstLive);
    chain.head += 7_200n;
    const live = liveWindow(chain);
    const { outcome } = await backfillWeek(chain, 12_000, {
      ...live,
      heldRanges: [...stored, ...firstLive.heldRanges, ...live.heldRanges],
      anchors: [...anchors, firstLive.newest],
    });
    rows.push({
      name: `history backfill: calls after a day away, 12 s chain (${outcome.blocksFetched} blocks missed)`,
      value: outcome.requests,
      unit: "calls",
      baselineName: "a first week's backfill",
      baseline: full.requests,
      goal: "the missed blocks only",
    });
  } finally {
    await chain.close();
  }
  return rows;
}
