// Ten real chains (ten Hardhat nodes, each its own child process, each behind a counting proxy) followed by one
// headless serve process: RPC requests per new block, and the serve process's resident memory. Baselines in the
// same run: viem's watchBlocks on the same ten chains through the same proxies, and idle node processes.
import { createPublicClient, defineChain, http } from "viem";
import { startFaultProxy, type FaultProxy } from "../../test/support/faultProxy.ts";
import { startTestChain, type TestChain } from "../../test/support/feedHarness.ts";
import { waitFor } from "../../test/support/waitFor.ts";
import type { BenchRow } from "./benchRow.ts";
import { bareNodeRssMb, startServeProcess } from "./serveProcess.ts";

const CHAINS = 10;
const BLOCK_INTERVAL_MS = 1000;
const NEW_BLOCKS = Number(process.env.GASFEES_BENCH_BLOCKS ?? 30);
const KEY = "0123456789abcdef0123456789abcdef";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Mines one block on every chain each interval, `count` times, calling `afterRound` at the end of each interval. */
async function mineRounds(chains: readonly TestChain[], count: number, afterRound: () => void = () => {}): Promise<void> {
  for (let round = 0; round < count; round++) {
    const started = Date.now();
    await Promise.all(chains.map((chain) => chain.mine(1)));
    await sleep(Math.max(0, BLOCK_INTERVAL_MS - (Date.now() - started)));
    afterRound();
  }
}

export async function runTenChainsBench(): Promise<BenchRow[]> {
  const chains: TestChain[] = [];
  const proxies: FaultProxy[] = [];
  try {
    // Started five at a time: ten Hardhat nodes booting at once on two cores take longer than in two waves.
    for (let wave = 0; wave < CHAINS; wave += 5) {
      const started = await Promise.all(
        Array.from({ length: Math.min(5, CHAINS - wave) }, (_, i) => startTestChain(520, { chainId: 1001 + wave + i, feeOffset: (wave + i) * 1000 })),
      );
      chains.push(...started);
    }
    for (const chain of chains) proxies.push(await startFaultProxy(chain.node.url));
    const totalRequests = () => proxies.reduce((sum, proxy) => sum + proxy.httpRequests(), 0);
    const totalCalls = () => proxies.reduce((sum, proxy) => sum + proxy.total(), 0);

    const settings = {
      chains: chains.map((chain, i) => ({ chainId: chain.node.chainId, name: `Bench ${i + 1}`, rpcUrls: [proxies[i]!.url], blockTimeMs: BLOCK_INTERVAL_MS })),
      apiKeys: [{ key: KEY }],
    };
    const authorization = `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`;
    const caughtUpOn = (url: string) => async () => {
      const answer = await fetch(`${url}/networks`, { headers: { authorization } });
      if (answer.status !== 200) return false;
      const networks = (await answer.json()) as Array<{ chainId: number; state: string; newestBlock: string | null }>;
      return chains.every((chain) =>
        networks.some((network) => network.chainId === chain.node.chainId && network.state === "ok" && network.newestBlock === chain.newestBlock.toString()),
      );
    };
    const serve = await startServeProcess(settings);
    // The highest of the samples taken once a block, backfill included: one sample at the end would miss a peak.
    let rssMb = serve.rssMb();
    const sampleRss = () => (rssMb = Math.max(rssMb, serve.rssMb()));
    let requestsPerBlock: number;
    let callsPerBlock: number;
    try {
      const caughtUp = caughtUpOn(serve.url);
      await waitFor("ten chains backfilled", caughtUp, { timeoutMs: 60_000, everyMs: 100 });
      sampleRss();
      await sleep(2 * BLOCK_INTERVAL_MS);
      proxies.forEach((proxy) => proxy.resetCounts());
      await mineRounds(chains, NEW_BLOCKS, sampleRss);
      await waitFor("ten chains caught up", caughtUp, { timeoutMs: 30_000, everyMs: 100 });
      requestsPerBlock = totalRequests() / (CHAINS * NEW_BLOCKS);
      callsPerBlock = totalCalls() / (CHAINS * NEW_BLOCKS);
      sampleRss();
    } finally {
      await serve.stop();
    }

    // The same service from source through tsx, as the tests run it.
    const fromSource = await startServeProcess(settings, { tsx: true });
    let tsxRssMb: number;
    try {
      await waitFor("ten chains backfilled (tsx)", caughtUpOn(fromSource.url), { timeoutMs: 60_000, everyMs: 100 });
      await mineRounds(chains, 5);
      await waitFor("ten chains caught up (tsx)", caughtUpOn(fromSource.url), { timeoutMs: 30_000, everyMs: 100 });
      tsxRssMb = fromSource.rssMb();
    } finally {
      await fromSource.stop();
    }
    const plainNodeMb = await bareNodeRssMb(false);

    // Baseline: viem's watchBlocks on each chain, polling at the block interval, over as many new blocks.
    const unwatch = chains.map((chain, i) => {
      const viemChain = defineChain({
        id: chain.node.chainId,
        name: `bench ${i}`,
        nativeCurrency: { name: "ETH", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [proxies[i]!.url] } },
      });
      const client = createPublicClient({ chain: viemChain, transport: http(proxies[i]!.url) });
      return client.watchBlocks({ pollingInterval: BLOCK_INTERVAL_MS, onBlock: () => {} });
    });
    await sleep(2 * BLOCK_INTERVAL_MS);
    proxies.forEach((proxy) => proxy.resetCounts());
    await mineRounds(chains, NEW_BLOCKS);
    await sleep(2 * BLOCK_INTERVAL_MS);
    unwatch.forEach((stop) => stop());
    const watchPerBlock = totalRequests() / (CHAINS * NEW_BLOCKS);
    const watchCallsPerBlock = totalCalls() / (CHAINS * NEW_BLOCKS);
    const bareMb = await bareNodeRssMb();

    return [
      {
        name: `RPC requests (HTTP) per new block, ${CHAINS} chains followed by one serve process (${NEW_BLOCKS} blocks each, all methods)`,
        value: requestsPerBlock,
        unit: "requests/block",
        baselineName: "viem watchBlocks per chain",
        baseline: watchPerBlock,
        goal: "≤ 1.2",
      },
      {
        name: `JSON-RPC calls per new block, the same (each poll batches the newest header with its eth_feeHistory)`,
        value: callsPerBlock,
        unit: "calls/block",
        baselineName: "viem watchBlocks per chain",
        baseline: watchCallsPerBlock,
        goal: "—",
      },
      {
        name: `peak resident memory (VmRSS, sampled every block) of the headless serve process (npm run serve) following ${CHAINS} chains for ${NEW_BLOCKS} blocks`,
        value: rssMb,
        unit: "MB",
        baselineName: "idle plain node",
        baseline: plainNodeMb,
        goal: "< 80 MB",
      },
      {
        name: `resident memory (VmRSS) of the same service from source through tsx (as the tests run it), ${CHAINS} chains`,
        value: tsxRssMb,
        unit: "MB",
        baselineName: "idle node --import tsx",
        baseline: bareMb,
        goal: "—",
      },
    ];
  } finally {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await Promise.all(chains.map((chain) => chain.node.stop()));
  }
}
