// Freshness over http(s) and ws: how long after a block appears at the RPC endpoint its event reaches /events, and how
// many requests that costs, on real Hardhat nodes mining in slots as real chains do (each block stamped with its slot's
// start and appearing a little after it): one at a fixed delay after each slot, one at a jittered delay (so that the
// intervals between blocks vary by ±25% of the block time), and one followed over ws. Baselines measured in the same
// run on the same chains: fixed-phase polling once per block time (a ChainFeed given pollIntervalMs, as the feed
// polled before it timed its polls), and viem's watchBlocks (http polling, or its ws subscription).
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicClient, http, webSocket } from "viem";
import { WebSocket } from "ws";
import { silentLogger } from "../../shared/log/logger.ts";
import { ChainFeed } from "../../shared/rpc/feed/chainFeed.ts";
import { startTestChain, type TestChain } from "../../test/support/feedHarness.ts";
import type { BenchRow } from "./benchRow.ts";
import { startServeProcess } from "./serveProcess.ts";

const BLOCK_TIME_MS = Number(process.env.GASFEES_BENCH_BLOCK_TIME_MS ?? 2000);
/** Blocks before the measurement: the service learns each chain's rhythm (it is given no block time: it assumes 12 s). */
const WARM_UP_BLOCKS = 18;
const MEASURED_BLOCKS = Number(process.env.GASFEES_BENCH_BLOCKS ?? 30);
/** After its slot starts, a block appears this much later (fixed chain), or up to this share of the block time later (jittered). */
const FIXED_DELAY_MS = 100;
const JITTER_SHARE = 0.25;
const KEY = "0123456789abcdef0123456789abcdef";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Nearest rank. */
function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((q / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** A forwarding HTTP proxy that counts requests and the JSON-RPC calls in them (a batch counts each of its calls). */
interface CountingProxy {
  readonly url: string;
  readonly requests: number;
  readonly calls: number;
  reset(): void;
  close(): Promise<void>;
}

async function startCountingProxy(targetUrl: string): Promise<CountingProxy> {
  const target = new URL(targetUrl);
  let requests = 0;
  let calls = 0;
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      requests++;
      try {
        const parsed = JSON.parse(body.toString("utf8")) as unknown;
        calls += Array.isArray(parsed) ? parsed.length : 1;
      } catch {
        calls++;
      }
      const outgoing = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: "POST",
          headers: { "content-type": "application/json", "content-length": body.length },
        },
        (upstream) => {
          response.writeHead(upstream.statusCode ?? 502, { "content-type": "application/json" });
          upstream.pipe(response);
        },
      );
      outgoing.on("error", () => response.destroy());
      outgoing.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return requests;
    },
    get calls() {
      return calls;
    },
    reset() {
      requests = calls = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** When each block was first seen by one follower: block number -> epoch ms. */
class Sightings {
  readonly at = new Map<bigint, number>();
  newest = -1n;

  /** Records that blocks up to `newest` are seen now (a follower that skips blocks sees them all at once). */
  see(newest: bigint, now = Date.now()): void {
    for (let block = this.newest + 1n; block <= newest; block++) if (!this.at.has(block)) this.at.set(block, now);
    if (newest > this.newest) this.newest = newest;
  }
}

/** A raw ws newHeads subscription to the node itself: when each block appeared at the RPC. */
async function watchAppearances(wsUrl: string, appeared: Sightings): Promise<() => void> {
  const socket = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  socket.on("message", (data: Buffer) => {
    const now = Date.now();
    const message = JSON.parse(data.toString("utf8")) as { method?: string; params?: { result?: { number?: string } } };
    const number = message.params?.result?.number;
    if (message.method === "eth_subscription" && number !== undefined) appeared.see(BigInt(number), now);
  });
  socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }));
  return () => socket.close();
}

/** The service's /events stream: when each chain's newest block reached it. */
async function watchEvents(baseUrl: string, seen: ReadonlyMap<number, Sightings>): Promise<() => void> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/events`, {
    headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` },
    signal: abort.signal,
  });
  if (!response.ok || !response.body) throw new Error(`/events answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const now = Date.now();
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(event)?.[1];
          if (data === undefined) continue;
          const { status } = JSON.parse(data) as { status: { chainId: number; newestBlock: string | null } };
          if (status.newestBlock !== null) seen.get(status.chainId)?.see(BigInt(status.newestBlock), now);
        }
      }
    } catch {
      // Aborted at the end of the run.
    }
  })();
  return () => abort.abort();
}

/**
 * Mines blocks in slots of BLOCK_TIME_MS from `firstSlotMs` (a whole second): block k is stamped with its slot's start
 * and appears `delayMs(k)` after it. Resolves after `count` blocks.
 */
async function mineSlots(chain: TestChain, firstSlotMs: number, count: number, delayMs: (k: number) => number): Promise<void> {
  for (let k = 0; k < count; k++) {
    const slotMs = firstSlotMs + k * BLOCK_TIME_MS;
    await chain.node.request("evm_setNextBlockTimestamp", [`0x${(slotMs / 1000).toString(16)}`]);
    await sleep(slotMs + delayMs(k) - Date.now());
    await chain.mine(1);
  }
}

/** Lags (ms) from each block's appearance to its sighting by a follower, over the measured blocks. */
function lagsOf(appeared: Sightings, follower: Sightings, blocks: readonly bigint[]): number[] {
  return blocks.map((block) => {
    const at = appeared.at.get(block);
    const seenAt = follower.at.get(block);
    if (at === undefined || seenAt === undefined)
      throw new Error(`block ${block} was not seen (appeared ${at}, seen ${seenAt}; the follower's newest: ${follower.newest})`);
    if (process.env.GASFEES_BENCH_DEBUG) process.stderr.write(`block ${block}: ${seenAt - at} ms\n`);
    return seenAt - at;
  });
}

/** A deterministic pseudo-random sequence in [0, 1): the same jitter in every run. */
function jitter(seed: number): (k: number) => number {
  const values: number[] = [];
  let state = seed >>> 0;
  return (k) => {
    while (values.length <= k) {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      values.push(state / 2 ** 32);
    }
    return values[k]!;
  };
}

export async function runFreshnessBench(): Promise<BenchRow[]> {
  const [fixedChain, jitteredChain, wsChain] = await Promise.all([
    startTestChain(0, { chainId: 31337 }),
    startTestChain(0, { chainId: 1337, feeOffset: 3000 }),
    startTestChain(0, { chainId: 1338, feeOffset: 6000 }),
  ]);
  const chains = [fixedChain, jitteredChain, wsChain];
  const proxies: CountingProxy[] = [];
  const stops: (() => void | Promise<void>)[] = [];
  try {
    const proxy = async (chain: TestChain) => {
      const started = await startCountingProxy(chain.node.url);
      proxies.push(started);
      return started;
    };
    const [servedFixed, servedJittered, phasedFixed, phasedJittered, viemFixed, viemJittered] = await Promise.all([
      proxy(fixedChain),
      proxy(jitteredChain),
      proxy(fixedChain),
      proxy(jitteredChain),
      proxy(fixedChain),
      proxy(jitteredChain),
    ]);

    // Sightings: when each block appeared at its node, and when each follower saw it.
    const appeared = new Map(chains.map((chain) => [chain.node.chainId, new Sightings()]));
    const events = new Map(chains.map((chain) => [chain.node.chainId, new Sightings()]));
    const phased = new Map(chains.map((chain) => [chain.node.chainId, new Sightings()]));
    const watched = new Map(chains.map((chain) => [chain.node.chainId, new Sightings()]));
    for (const chain of chains) stops.push(await watchAppearances(chain.node.wsUrl, appeared.get(chain.node.chainId)!));

    // The service, as users run it, given no block time: it learns each chain's rhythm from its blocks.
    const serve = await startServeProcess({
      chains: [
        { chainId: fixedChain.node.chainId, name: "Fixed slots", rpcUrls: [servedFixed.url] },
        { chainId: jitteredChain.node.chainId, name: "Jittered slots", rpcUrls: [servedJittered.url] },
        { chainId: wsChain.node.chainId, name: "Over ws", rpcUrls: [wsChain.node.wsUrl] },
      ],
      apiKeys: [{ key: KEY }],
    });
    stops.push(() => serve.stop());
    stops.push(await watchEvents(serve.url, events));

    // Baseline: polling once per block time at a fixed phase, fees alone (the feed as it polled before).
    for (const [chain, via] of [
      [fixedChain, phasedFixed],
      [jitteredChain, phasedJittered],
    ] as const) {
      const seen = phased.get(chain.node.chainId)!;
      const feed = new ChainFeed({
        chainId: chain.node.chainId,
        rpcUrls: [via.url],
        blockTimeMs: BLOCK_TIME_MS,
        pollIntervalMs: BLOCK_TIME_MS,
        windowBlocks: 500,
        logger: silentLogger,
        onReport: (report) => {
          if (report.newestBlock !== undefined) seen.see(report.newestBlock);
        },
      });
      feed.start();
      stops.push(() => feed.stop());
    }
    // Baseline: viem's watchBlocks, polling once per block time over http, or subscribed over ws.
    for (const [chain, url] of [
      [fixedChain, viemFixed.url],
      [jitteredChain, viemJittered.url],
      [wsChain, wsChain.node.wsUrl],
    ] as const) {
      const seen = watched.get(chain.node.chainId)!;
      const transport = url.startsWith("ws") ? webSocket(url, { reconnect: false }) : http(url);
      const client = createPublicClient({ transport, pollingInterval: BLOCK_TIME_MS });
      const unwatch = client.watchBlocks({ onBlock: (block) => seen.see(block.number), pollingInterval: BLOCK_TIME_MS });
      stops.push(async () => {
        unwatch();
        if (client.transport.type === "webSocket")
          (await (client.transport as unknown as { getRpcClient(): Promise<{ close(): void }> }).getRpcClient()).close();
      });
    }

    // Slots start on a whole second; the fixed chain's blocks appear FIXED_DELAY_MS after theirs, the jittered chain's
    // at a random moment within its slot's first quarter.
    const firstSlotMs = Math.ceil(Date.now() / 1000) * 1000 + 2000;
    const total = WARM_UP_BLOCKS + MEASURED_BLOCKS;
    const random = jitter(16);
    // Requests are counted over the measured slots: from half a slot before the first measured block to half a slot
    // after the last.
    const counting = (async () => {
      await sleep(firstSlotMs + WARM_UP_BLOCKS * BLOCK_TIME_MS - BLOCK_TIME_MS / 2 - Date.now());
      for (const each of proxies) each.reset();
    })();
    await Promise.all([
      mineSlots(fixedChain, firstSlotMs, total, () => FIXED_DELAY_MS),
      mineSlots(jitteredChain, firstSlotMs, total, (k) => random(k) * JITTER_SHARE * BLOCK_TIME_MS),
      mineSlots(wsChain, firstSlotMs, total, () => FIXED_DELAY_MS),
      counting,
    ]);
    await sleep(BLOCK_TIME_MS / 2);
    const requests = proxies.map((each) => each.requests);
    const calls = proxies.map((each) => each.calls);
    // Everyone has had time to see the last block.
    await sleep(2 * BLOCK_TIME_MS);

    const measured = (chain: TestChain) => Array.from({ length: MEASURED_BLOCKS }, (_, i) => chain.newestBlock - BigInt(MEASURED_BLOCKS - 1 - i));
    const lags = (follower: Map<number, Sightings>, chain: TestChain) =>
      lagsOf(appeared.get(chain.node.chainId)!, follower.get(chain.node.chainId)!, measured(chain));
    const perBlock = (count: number) => count / MEASURED_BLOCKS;
    const rows: BenchRow[] = [];
    const seconds = BLOCK_TIME_MS / 1000;
    for (const [label, chain, served, phasedVia, viemVia] of [
      [`http, ${seconds} s slots, blocks ${FIXED_DELAY_MS} ms into each`, fixedChain, 0, 2, 4],
      [`http, ${seconds} s slots, blocks 0–${JITTER_SHARE * 100}% into each (intervals ±${JITTER_SHARE * 100}%)`, jitteredChain, 1, 3, 5],
    ] as const) {
      const ours = lags(events, chain);
      const fixedPhase = lags(phased, chain);
      const viem = lags(watched, chain);
      rows.push(
        {
          name: `${label}: median lag from a block at the RPC to its /events event (${MEASURED_BLOCKS} blocks)`,
          value: percentile(ours, 50),
          unit: "ms",
          baselineName: "polling once per block time, fixed phase",
          baseline: percentile(fixedPhase, 50),
          goal: `< ${0.15 * BLOCK_TIME_MS} ms (15%)`,
        },
        {
          name: `${label}: 95th percentile of the same lag`,
          value: percentile(ours, 95),
          unit: "ms",
          baselineName: "polling once per block time, fixed phase",
          baseline: percentile(fixedPhase, 95),
          goal: `< ${0.35 * BLOCK_TIME_MS} ms (35%)`,
        },
        {
          name: `${label}: median lag, against viem`,
          value: percentile(ours, 50),
          unit: "ms",
          baselineName: "viem watchBlocks, polling once per block time",
          baseline: percentile(viem, 50),
          goal: "—",
        },
        {
          name: `${label}: HTTP requests per block`,
          value: perBlock(requests[served]!),
          unit: "requests/block",
          baselineName: "polling once per block time, fixed phase",
          baseline: perBlock(requests[phasedVia]!),
          goal: "≤ 1.2",
        },
        {
          name: `${label}: JSON-RPC calls per block (the fees each poll, the newest header every 16 blocks)`,
          value: perBlock(calls[served]!),
          unit: "calls/block",
          baselineName: "viem watchBlocks, polling once per block time",
          baseline: perBlock(calls[viemVia]!),
          goal: "≤ 1.2",
        },
      );
    }
    const wsOurs = lags(events, wsChain);
    const wsViem = lags(watched, wsChain);
    rows.push(
      {
        name: `ws newHeads: median lag from a block at the RPC to its /events event (${MEASURED_BLOCKS} blocks)`,
        value: percentile(wsOurs, 50),
        unit: "ms",
        baselineName: "viem watchBlocks over ws",
        baseline: percentile(wsViem, 50),
        goal: "< 20 ms",
      },
      {
        name: "ws newHeads: 95th percentile of the same lag",
        value: percentile(wsOurs, 95),
        unit: "ms",
        baselineName: "viem watchBlocks over ws",
        baseline: percentile(wsViem, 95),
        goal: "—",
      },
    );
    return rows;
  } finally {
    for (const stop of stops.reverse()) await stop();
    await Promise.all(proxies.map((each) => each.close()));
    await Promise.all(chains.map((chain) => chain.node.stop()));
  }
}
