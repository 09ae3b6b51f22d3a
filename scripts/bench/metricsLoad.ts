// Child process of serverBench: what /metrics costs the throughput goal. The same gasfees server as serverLoad's (in its
// own process, benchServers.ts) is loaded on busyThreshold with and without a Prometheus scraping /metrics every
// second meanwhile (a real Prometheus scrapes every 15 s), in turn (A B B A); and the one thing every request pays for
// /metrics, counting its answer by route and status, is timed alone beside the server's CPU time per request.
// Prints the rows as one JSON line.
import { spawn } from "node:child_process";
import { request, type ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { RequestCounts } from "../../shared/http/metricsRequestCounts.ts";
import type { BenchRow } from "./benchRow.ts";
import { BENCH_KEY, BENCH_PATHS } from "./benchServersData.ts";
import { serveNodeFlags, stopChild } from "./serveProcess.ts";

const SECONDS = Number(process.env.GASFEES_BENCH_SECONDS ?? 3);
const CONNECTIONS = 10;
const SCRAPE_EVERY_MS = 1_000;
const AUTHORIZATION = `Basic ${Buffer.from(`${BENCH_KEY}:`).toString("base64")}`;

interface Measure {
  readonly rps: number;
  /** CPU time (user + system) of the servers' process per answered request; NaN where /proc is missing. */
  readonly cpuUsPerRequest: number;
  readonly scrapes: number;
}

/** CPU time (user + system) a process has used, in ms, from /proc (Linux; clock ticks of 10 ms); NaN elsewhere. */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** One scrape as Prometheus makes it; fails the bench on anything but a 200 with samples. */
function scrape(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path: "/metrics", headers: { authorization: AUTHORIZATION } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () =>
        res.statusCode === 200 && text.includes("gasfees_busy_threshold_gwei") ? resolve() : reject(new Error(`/metrics: ${res.statusCode}`)),
      );
    })
      .on("error", reject)
      .end();
  });
}

async function load(port: number, path: string, seconds: number, serversPid: number, scraped: boolean): Promise<Measure> {
  let scrapes = 0;
  const scraping: Promise<void>[] = [];
  const timer = scraped ? setInterval(() => scraping.push(scrape(port).then(() => void scrapes++)), SCRAPE_EVERY_MS) : undefined;
  const cpuMsBefore = cpuMsOf(serversPid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      { url: `http://127.0.0.1:${port}${path}`, connections: CONNECTIONS, duration: seconds, headers: { authorization: AUTHORIZATION } },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
  });
  clearInterval(timer);
  await Promise.all(scraping);
  const failures = result.errors + result.timeouts + result.non2xx;
  if (failures > 0) throw new Error(`${path}: ${failures} failed requests under load`);
  return { rps: result.requests.average, cpuUsPerRequest: ((cpuMsOf(serversPid) - cpuMsBefore) * 1000) / result.requests.total, scrapes };
}

/** Nanoseconds per counted answer: RequestCounts.countAnswer on an answer already written, as the server calls it. */
function countingNsPerAnswer(): number {
  const counts = new RequestCounts();
  const answers = [200, 304, 401].map((statusCode) => ({ headersSent: true, statusCode }) as unknown as ServerResponse);
  const routes = ["/networks/{chainId}/busyThreshold", "/networks/{chainId}/baseFeeHistory", "/v3/{apiKey}/networks/{chainId}/busyThreshold"];
  const calls = 3_000_000;
  const run = () => {
    for (let index = 0; index < calls; index++) counts.countAnswer(routes[index % 3]!, answers[index % 3]!);
  };
  run();
  const startedNs = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - startedNs) / calls;
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function measure(): Promise<BenchRow[]> {
  const child = spawn(process.execPath, [...serveNodeFlags(), "--import", "tsx", "scripts/bench/benchServers.ts"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const { gasfees: port } = await new Promise<{ gasfees: number }>((resolve, reject) => {
      child.stdout.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString("utf8")) as { gasfees: number }));
      child.once("exit", (code) => reject(new Error(`the bench servers exited with ${code}`)));
    });
    const pid = child.pid!;
    const path = BENCH_PATHS[0];
    await load(port, path, 1, pid, false);
    await load(port, path, 1, pid, true);
    const plain: Measure[] = [];
    const scraped: Measure[] = [];
    plain.push(await load(port, path, SECONDS, pid, false));
    scraped.push(await load(port, path, SECONDS, pid, true));
    scraped.push(await load(port, path, SECONDS, pid, true));
    plain.push(await load(port, path, SECONDS, pid, false));
    const name = path.split("/").at(-1)!;
    const scrapes = scraped.reduce((sum, measure) => sum + measure.scrapes, 0);
    const rows: BenchRow[] = [
      {
        name: `${name}: requests per second while /metrics is scraped every second (${scrapes} scrapes)`,
        value: mean(scraped.map((m) => m.rps)),
        unit: "req/s",
        baselineName: "the same server, not scraped",
        baseline: mean(plain.map((m) => m.rps)),
        goal: "≈ 1 (no measurable cost)",
      },
    ];
    const cpuUs = mean(plain.map((m) => m.cpuUsPerRequest));
    if (Number.isFinite(cpuUs)) {
      rows.push({
        name: "counting each answer by route and status for /metrics, per request",
        value: countingNsPerAnswer(),
        unit: "ns",
        baselineName: `the server's CPU time per ${name} request`,
        baseline: cpuUs * 1000,
        goal: "< 0.01",
      });
    }
    return rows;
  } finally {
    await stopChild(child);
  }
}

process.stdout.write(`${JSON.stringify(await measure())}\n`);
