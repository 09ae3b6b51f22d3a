// What endpoints checking each other costs: JSON-RPC calls per new block over http in steady state, for a chain
// followed through one endpoint (no cross-check: nothing to compare) and through three (a block in 32 asked of each),
// counted where they arrive, on the project's stand-in JSON-RPC servers (test/support/syntheticChainServer.ts) whose
// chains grow a block a second, dated as they appear. Both feeds run at once on chains that grow in step.
import { silentLogger } from "../../shared/log/logger.ts";
import { ChainFeed } from "../../shared/rpc/feed/chainFeed.ts";
import { startSyntheticChainServer, type SyntheticChainServer } from "../../test/support/syntheticChainServer.ts";
import type { BenchRow } from "./benchRow.ts";

const BLOCK_MS = 1000;
const WARM_UP_BLOCKS = 24;
const MEASURED_BLOCKS = Number(process.env.GASFEES_BENCH_BLOCKS ?? 96);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runCrossCheckBench(): Promise<BenchRow[]> {
  const startHead = 100_000n;
  const startS = Math.floor(Date.now() / 1000);
  const timestampOf = (block: bigint) => startS + Number(block - startHead);
  const servers: SyntheticChainServer[] = [];
  for (let i = 0; i < 4; i++) servers.push(await startSyntheticChainServer({ head: startHead, timestampOf, blobFees: false }));
  const [alone, ...three] = servers as [SyntheticChainServer, SyntheticChainServer, SyntheticChainServer, SyntheticChainServer];
  const feed = (urls: string[]) => new ChainFeed({ chainId: 1, rpcUrls: urls, blockTimeMs: BLOCK_MS, windowBlocks: 500, logger: silentLogger });
  const feeds = [feed([alone.url]), feed(three.map((server) => server.url))];
  for (const each of feeds) each.start();
  const grow = setInterval(() => {
    for (const server of servers) server.head += 1n;
  }, BLOCK_MS);
  try {
    await sleep(WARM_UP_BLOCKS * BLOCK_MS);
    const before = servers.map((server) => server.calls());
    const feedBefore = three[0].calls();
    await sleep(MEASURED_BLOCKS * BLOCK_MS);
    const calls = servers.map((server, i) => server.calls() - before[i]!);
    const perBlock = (count: number) => count / MEASURED_BLOCKS;
    const threeTotal = calls[1]! + calls[2]! + calls[3]!;
    return [
      {
        name: "JSON-RPC calls per new block, http, three endpoints (the feed's and the cross-check's: a block in 32 asked of each)",
        value: perBlock(threeTotal),
        unit: "calls",
        baselineName: "one endpoint, no cross-check",
        baseline: perBlock(calls[0]!),
        goal: "≤ 1.2 per block for one endpoint; the cross-check about k/32 more for k endpoints",
      },
      {
        name: "JSON-RPC calls per new block at the endpoint followed, three endpoints",
        value: perBlock(three[0].calls() - feedBefore),
        unit: "calls",
        baselineName: "one endpoint, no cross-check",
        baseline: perBlock(calls[0]!),
        goal: "≤ 1.2 + 1/32",
      },
    ];
  } finally {
    clearInterval(grow);
    await Promise.all(feeds.map((each) => each.stop()));
    await Promise.all(servers.map((server) => server.close()));
  }
}
