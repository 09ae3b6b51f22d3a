// /outlook beside busyThreshold on the same service, with a year of hourly summaries (run in a fresh process by
// outlookBench.ts; prints its rows as JSON). The real FeeService over a scripted feed (no RPC: the RPC is not what is
// measured), the real server, the service's own estimator; load from autocannon, 10 connections, A B B A.
import { Agent, request } from "node:http";
import autocannon from "autocannon";
import { syntheticHours } from "../../test/support/hourlySummaries.ts";
import { scriptedService } from "../../test/support/scriptedFeed.ts";
import { ApiKeyring } from "../../shared/keys/apiKeyring.ts";
import { createLogger } from "../../shared/log/logger.ts";
import { createApiServer } from "../../shared/http/server.ts";
import type { BenchRow } from "./benchRow.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const AUTHORIZATION = `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`;
const LOAD_SECONDS = Number(process.env.GASFEES_BENCH_SECONDS ?? 5);
const HOURS = 365 * 24;
const GWEI = 1_000_000_000n;

interface Latency {
  p50: number;
  p99: number;
  rps: number;
}

async function load(url: string, paths: readonly string[], seconds: number): Promise<Latency> {
  const result = await autocannon({
    url,
    connections: 10,
    duration: seconds,
    headers: { authorization: AUTHORIZATION },
    requests: paths.map((path) => ({ method: "GET", path })),
  });
  if (result.non2xx + result.errors > 0) throw new Error(`${paths.join(", ")}: ${result.non2xx + result.errors} failed requests`);
  return { p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average };
}

/** p50 and p99 (ms) of `count` requests one after another on one kept-alive connection, cycling through `paths`. */
async function sequential(url: string, paths: readonly string[], count: number): Promise<{ p50: number; p99: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(url);
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const from = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: hostname, port, path: paths[index % paths.length], agent, headers: { authorization: AUTHORIZATION } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${paths[index % paths.length]}: ${res.statusCode}`));
        res.resume();
        res.on("end", resolve);
      });
      req.on("error", reject);
      req.end();
    });
    times.push(performance.now() - from);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { p50: times[Math.ceil(0.5 * count) - 1]!, p99: times[Math.ceil(0.99 * count) - 1]! };
}

const nowS = Math.floor(Date.now() / 1000);
const firstStart = Math.floor(nowS / 3600) * 3600 - HOURS * 3600;
const scripted = scriptedService([{ chainId: 1, name: "Ethereum" }]);
scripted.write(
  1,
  21_000_000n,
  Array.from({ length: 500 }, (_, index) => 15n * GWEI + BigInt(index % 50) * 100_000_000n),
  { nextBaseFeeWei: 20n * GWEI },
);
const preparedFrom = performance.now();
scripted.service.writeHourlySummaries(1, syntheticHours(firstStart, HOURS, 5));
const outlook = scripted.service.outlook(1)!;
await outlook.whenIdle();
const prepareMs = performance.now() - preparedFrom;
const server = createApiServer({
  source: scripted.service,
  keyring: new ApiKeyring([{ key: KEY }]),
  logger: createLogger("error", () => undefined),
  port: 0,
  rateLimit: { requestsPerSecond: 0, burst: 1 },
});
const { url } = await server.listen();
try {
  const outlookPaths = [
    "/networks/1/outlook?within=6h&belowRatio=0.9",
    "/networks/1/outlook?within=1h",
    "/networks/1/outlook?within=24h&below=15.5",
    "/networks/1/outlook?within=12h&belowRatio=0.75",
  ];
  const busyPaths = ["/networks/1/busyThreshold"];
  // An unprepared horizon: its first answer waits for its sliced backtest; busyThreshold is loaded meanwhile.
  const unpreparedFrom = performance.now();
  const [unprepared, busyDuring] = await Promise.all([
    fetch(`${url}/networks/1/outlook?within=100h`, { headers: { authorization: AUTHORIZATION } }).then(async (answer) => {
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`within=100h: ${answer.status}`);
      return performance.now() - unpreparedFrom;
    }),
    load(url, busyPaths, 2),
  ]);
  await load(url, outlookPaths, 1);
  await load(url, busyPaths, 1);
  // Latency: one client, one request at a time (no queueing behind other clients), A B B A.
  const REQUESTS = 3000;
  const busyAlone = [await sequential(url, busyPaths, REQUESTS)];
  const outlookAlone = [await sequential(url, outlookPaths, REQUESTS), await sequential(url, outlookPaths, REQUESTS)];
  busyAlone.push(await sequential(url, busyPaths, REQUESTS));
  // Throughput: 10 connections.
  const busy = [await load(url, busyPaths, LOAD_SECONDS)];
  const outlooks = [await load(url, outlookPaths, LOAD_SECONDS), await load(url, outlookPaths, LOAD_SECONDS)];
  busy.push(await load(url, busyPaths, LOAD_SECONDS));
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const rows: BenchRow[] = [
    {
      name: `outlook: p99 latency, one client, ${REQUESTS} requests twice, a year of hourly summaries (4 queries: 1/6/12/24 h, no threshold, below, belowRatio)`,
      value: mean(outlookAlone.map((run) => run.p99)),
      unit: "ms",
      baselineName: "busyThreshold, same service",
      baseline: mean(busyAlone.map((run) => run.p99)),
      goal: "< 5 ms",
    },
    {
      name: "outlook: p50 latency, the same",
      value: mean(outlookAlone.map((run) => run.p50)),
      unit: "ms",
      baselineName: "busyThreshold, same service",
      baseline: mean(busyAlone.map((run) => run.p50)),
      goal: "—",
    },
    {
      name: "outlook: p99 latency under load, 10 connections (autocannon, whole ms)",
      value: mean(outlooks.map((run) => run.p99)),
      unit: "ms",
      baselineName: "busyThreshold, same service",
      baseline: mean(busy.map((run) => run.p99)),
      goal: "—",
    },
    {
      name: "outlook: requests per second, 10 connections",
      value: mean(outlooks.map((run) => run.rps)),
      unit: "req/s",
      baselineName: "busyThreshold, same service",
      baseline: mean(busy.map((run) => run.rps)),
      goal: "—",
    },
    {
      name: `outlook: a year of summaries prepared (the estimator replayed, the 1/3/6/12/24 h backtests), in slices off the request path`,
      value: prepareMs,
      unit: "ms",
      baselineName: "—",
      baseline: 0,
      goal: "—",
    },
    {
      name: "outlook: first answer of an unprepared horizon (100 h: its backtest over the year, sliced), busyThreshold loaded meanwhile",
      value: unprepared,
      unit: "ms",
      baselineName: "busyThreshold p99 during it (10 connections)",
      baseline: busyDuring.p99,
      goal: "—",
    },
  ];
  process.stdout.write(JSON.stringify(rows));
} finally {
  await server.close();
  await scripted.service.stop();
}
