// A soak: the headless serve process follows a real Hardhat chain that mines a block a second, while autocannon
// calls the three endpoints without pause. Memory must stay flat (resident memory over the last fifth of the run
// against the first fifth, the baseline) and no request may fail.
// `npm run bench -- soak` (or GASFEES_SOAK_MINUTES=5) runs 5 minutes; the default table runs a short soak.
import autocannon from "autocannon";
import { startFaultProxy } from "../../test/support/faultProxy.ts";
import { startTestChain } from "../../test/support/feedHarness.ts";
import type { BenchRow } from "./benchRow.ts";
import { BENCH_PATHS } from "./benchServersData.ts";
import { startServeProcess } from "./serveProcess.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export function soakSeconds(argv: readonly string[]): number {
  if (process.env.GASFEES_SOAK_MINUTES) return Number(process.env.GASFEES_SOAK_MINUTES) * 60;
  return argv.includes("soak") ? 300 : 30;
}

export async function runSoakBench(seconds: number): Promise<BenchRow[]> {
  const chain = await startTestChain(520, { chainId: 31337 });
  const proxy = await startFaultProxy(chain.node.url);
  const serve = await startServeProcess({
    chains: [{ chainId: 31337, name: "Soak", rpcUrls: [proxy.url], blockTimeMs: 1000 }],
    apiKeys: [{ key: KEY }],
    // The soak measures memory and errors under load, not the rate limit.
    rateLimit: { requestsPerSecond: 0, burst: 1 },
  });
  try {
    const authorization = `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`;
    for (const deadline = Date.now() + 30_000; ; await sleep(100)) {
      if ((await fetch(`${serve.url}/networks/31337/baseFeeHistory`, { headers: { authorization } })).status === 200) break;
      if (Date.now() > deadline) throw new Error("the soak chain got no data in 30 s");
    }
    const endAt = Date.now() + seconds * 1000;
    const samples: Array<{ atMs: number; rssMb: number }> = [];
    const startedAt = Date.now();
    const mining = (async () => {
      while (Date.now() < endAt) {
        await chain.mine(1);
        await sleep(1000);
      }
    })();
    const sampling = (async () => {
      while (Date.now() < endAt) {
        samples.push({ atMs: Date.now() - startedAt, rssMb: serve.rssMb() });
        await sleep(Math.max(250, (seconds * 1000) / 60));
      }
    })();
    const result = await autocannon({
      url: serve.url,
      connections: 10,
      duration: seconds,
      // Paced, not flat out: a soak looks for leaks and errors over time, not for the ceiling.
      overallRate: 2000,
      // A request's headers replace autocannon's defaults, Host included: the Host check wants ours.
      requests: BENCH_PATHS.map((path) => ({
        method: "GET",
        path: path.replace("/networks/1/", "/networks/31337/"),
        headers: { authorization, host: new URL(serve.url).host },
      })),
    });
    await Promise.all([mining, sampling]);
    // The service must still be following the chain after the soak.
    await sleep(1500);
    const last = await fetch(`${serve.url}/networks/31337/baseFeeHistory`, { headers: { authorization } });
    const followed = last.headers.get("x-block-number") === chain.newestBlock.toString();
    const fifth = (seconds * 1000) / 5;
    const first = median(samples.filter((sample) => sample.atMs <= fifth).map((sample) => sample.rssMb));
    const lastFifth = median(samples.filter((sample) => sample.atMs >= seconds * 1000 - fifth).map((sample) => sample.rssMb));
    const failures = result.errors + result.timeouts + result.non2xx + (followed ? 0 : 1);
    const label = seconds >= 120 ? `${Math.round(seconds / 60)}-minute` : `${seconds}-second`;
    return [
      {
        name: `${label} soak: resident memory, last fifth (median)`,
        value: lastFifth,
        unit: "MB",
        baselineName: "first fifth (median)",
        baseline: first,
        goal: "≤ 1.10 (flat)",
      },
      {
        name: `${label} soak: failed requests (errors, timeouts, non-2xx) of ${result.requests.total}, + 1 if the chain was no longer followed`,
        value: failures,
        unit: "requests",
        baselineName: "requests made",
        baseline: result.requests.total,
        goal: "0",
      },
    ];
  } finally {
    await serve.stop();
    await proxy.close();
    await chain.node.stop();
  }
}
