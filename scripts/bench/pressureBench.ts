// The service under pressure from one busy key (issue 23), with a week of 0.25 s blocks held (2.42 M, the real service's
// history, as statsBench fills it): while a child process attacks with history scans at whatever rate the default rate
// limit allows (closed loop, 429s included), this process measures what another client gets: /healthz and
// busyThreshold latency (one request after another, 20 ms apart), and how long a new block (one every 250 ms) takes to
// reach an /events stream; beside the same measured with no attack, in the same run. The server runs in this process,
// so the probes see its event loop as any client does; the attacker's CPU is its own process's.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { createApiServer } from "../../shared/http/server.ts";
import { ApiKeyring } from "../../shared/keys/apiKeyring.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import type { BenchRow } from "./benchRow.ts";
import { stopChild } from "./serveProcess.ts";
import { ARBITRUM, BLOCKS, FIRST_BLOCK, followWeek, NEWEST_SECONDS, weekOfFees } from "./statsBench.ts";

/** One key per attack, so that what one attack owes the rate limit does not weigh on the next. */
const ATTACKER_KEYS = [
  "0123456789abcdef0123456789abcdef",
  "1123456789abcdef0123456789abcdef",
  "2123456789abcdef0123456789abcdef",
  "3123456789abcdef0123456789abcdef",
];
const PROBE_KEY = "fedcba9876543210fedcba9876543210";
const ATTACK = fileURLToPath(new URL("./pressureAttack.ts", import.meta.url));
const SECONDS = Number(process.env.GASFEES_BENCH_SECONDS ?? 6);
const ATTACKS = ["stats-year", "stats-all", "stats-quick", "csv"] as const;
const NAMES: Readonly<Record<(typeof ATTACKS)[number], string>> = {
  "stats-year": "4 connections asking baseFeeStats?window=366d&buckets=2000",
  "stats-all": "4 connections asking baseFeeStats?from=0&to=253402300799&buckets=2000",
  "stats-quick": "100 connections asking baseFeeStats?window=7d&buckets=1",
  csv: "a fast reader downloading the week's CSV in a loop",
};

interface Probe {
  healthMs: number[];
  busyMs: number[];
  eventLagMs: number[];
  rssMb: number;
}

const p99 = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))] ?? Number.NaN;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function timedGet(agent: Agent, port: number, path: string, key?: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers = key === undefined ? {} : { Authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` };
    const req = httpRequest({ host: "127.0.0.1", port, path, agent, headers }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${path} answered ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end();
  });
}

export async function runPressureBench(): Promise<BenchRow[]> {
  const scripted = followWeek(weekOfFees());
  const server = createApiServer({
    source: scripted.service,
    keyring: new ApiKeyring([...ATTACKER_KEYS, PROBE_KEY].map((key) => ({ key }))),
    logger: silentLogger,
    port: 0,
  });
  const { port } = await server.listen();
  const dir = mkdtempSync(join(tmpdir(), "gasfees-pressure-bench-"));
  const bundle = join(dir, "pressureAttack.mjs");
  buildSync({ entryPoints: [ATTACK], bundle: true, platform: "node", format: "esm", outfile: bundle, logLevel: "error" });
  // The /events stream the probe reads, and when each new block was written (by block number).
  const writtenAt = new Map<bigint, number>();
  const lags: number[] = [];
  const events = await openEvents(port, (newest) => {
    const at = writtenAt.get(newest);
    if (at !== undefined) lags.push(performance.now() - at);
    writtenAt.delete(newest);
  });
  let nextBlock = FIRST_BLOCK + BigInt(BLOCKS);

  const probe = async (seconds: number): Promise<Probe> => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const healthMs: number[] = [];
    const busyMs: number[] = [];
    lags.length = 0;
    let rssMb = 0;
    const deadline = performance.now() + seconds * 1000;
    const blocks = setInterval(() => {
      const block = nextBlock++;
      const seconds = Math.floor(NEWEST_SECONDS + Number(block - FIRST_BLOCK - BigInt(BLOCKS) + 1n) * 0.25);
      writtenAt.set(block, performance.now());
      scripted.write(ARBITRUM, block, [10_000_000n + (block % 1000n)], { anchors: [{ block, timestamp: seconds }] });
    }, 250);
    while (performance.now() < deadline) {
      healthMs.push(await timedGet(agent, port, "/healthz"));
      busyMs.push(await timedGet(agent, port, `/networks/${ARBITRUM}/busyThreshold`, PROBE_KEY));
      rssMb = Math.max(rssMb, process.memoryUsage().rss / 2 ** 20);
      await pause(20);
    }
    clearInterval(blocks);
    agent.destroy();
    return { healthMs, busyMs, eventLagMs: [...lags], rssMb };
  };

  const rows: BenchRow[] = [];
  try {
    await probe(1); // warm-up: the code paths compiled
    const idle = await probe(SECONDS);
    for (const [index, attack] of ATTACKS.entries()) {
      const child = spawn(process.execPath, [bundle, String(port), ATTACKER_KEYS[index]!, attack, String(SECONDS + 1)], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
      await pause(1000);
      const under = await probe(SECONDS);
      await new Promise((resolve) => child.once("exit", resolve));
      await stopChild(child);
      const counts = JSON.parse(out.trim() || "{}") as { ok?: number; limited?: number };
      const told = `${NAMES[attack]} (${counts.ok ?? 0} answered, ${counts.limited ?? 0} refused 429)`;
      rows.push(
        {
          name: `/healthz p99 while one key runs: ${told}`,
          value: p99(under.healthMs),
          unit: "ms",
          baselineName: "no attack",
          baseline: p99(idle.healthMs),
          goal: "< 50 ms",
        },
        {
          name: "busyThreshold p99 (another key), the same",
          value: p99(under.busyMs),
          unit: "ms",
          baselineName: "no attack",
          baseline: p99(idle.busyMs),
          goal: "< 50 ms",
        },
        {
          name: "a new block to /events, p99, the same",
          value: p99(under.eventLagMs),
          unit: "ms",
          baselineName: "no attack",
          baseline: p99(idle.eventLagMs),
          goal: "< 100 ms",
        },
        {
          name: "resident memory of the server's process, peak, the same",
          value: under.rssMb,
          unit: "MB",
          baselineName: "no attack",
          baseline: idle.rssMb,
          goal: "—",
        },
      );
      await pause(1000); // the attacker's connections gone
    }
  } finally {
    events.destroy();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** An /events stream (probe key); calls `onBlock` with the newest block of each network event that carries blocks. */
function openEvents(port: number, onBlock: (newest: bigint) => void): Promise<{ destroy(): void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path: "/events", agent: false, headers: { Authorization: `Basic ${Buffer.from(`${PROBE_KEY}:`).toString("base64")}` } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`/events answered ${res.statusCode}`));
        res.setEncoding("utf8");
        let pending = "";
        res.on("data", (chunk: string) => {
          pending += chunk;
          let end = pending.indexOf("\n\n");
          while (end !== -1) {
            const message = pending.slice(0, end);
            pending = pending.slice(end + 2);
            end = pending.indexOf("\n\n");
            if (!message.includes("event: network")) continue;
            const data = message.split("\n").find((line) => line.startsWith("data: "));
            const blocks = data === undefined ? null : (JSON.parse(data.slice(6)) as { blocks: { firstBlock: string; baseFees: unknown[] } | null }).blocks;
            if (blocks !== null && blocks.baseFees.length > 0) onBlock(BigInt(blocks.firstBlock) + BigInt(blocks.baseFees.length - 1));
          }
        });
        resolve({ destroy: () => req.destroy() });
      },
    );
    req.on("error", reject);
    req.end();
  });
}
