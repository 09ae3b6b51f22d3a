// baseFeeStats over an Arbitrum-sized history (a week of 0.25 s blocks: 2,419,200, in the real service's history)
// through the real server, beside one native sort of the same fees in the same run (what summarising them by sorting
// would cost at the least), and the CSV export of the same week streamed to a client that reads as fast as it can.
import { readFileSync } from "node:fs";
import { toGweiString } from "../../shared/core/fees/gwei.ts";
import { Agent, request as httpRequest } from "node:http";
import { ApiKeyring } from "../../shared/keys/apiKeyring.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import { createApiServer } from "../../shared/http/server.ts";
import { type ScriptedService, scriptedService } from "../../test/support/scriptedFeed.ts";
import type { BenchRow } from "./benchRow.ts";

const KEY = "0123456789abcdef0123456789abcdef";
export const ARBITRUM = 42161;
const WEEK_SECONDS = 7 * 86_400;
const SPACING_SECONDS = 0.25;
export const BLOCKS = WEEK_SECONDS / SPACING_SECONDS;
/** 2026-01-01T00:00:00Z: the newest block's time. */
export const NEWEST_SECONDS = 1_767_225_600;
export const FIRST_BLOCK = 300_000_000n;
const PAGE_BLOCKS = 1024;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A block's header timestamp: whole seconds, so that four blocks share each second, as on Arbitrum. */
const headerSeconds = (index: number) => Math.floor(NEWEST_SECONDS - (BLOCKS - 1 - index) * SPACING_SECONDS);

/**
 * The real service's history of the chain, filled as it fills it: the feed's newest 500 blocks (the newest with its
 * header), then the backfill's pages of 1,024 older blocks, exact timestamps at each page's ends, interpolated between them.
 */
export function followWeek(feesWei: BigUint64Array): ScriptedService {
  const scripted = scriptedService([{ chainId: ARBITRUM, blockTimeMs: 250, statsWindow: "24h", historyHorizon: "8d" }]);
  const liveFrom = BLOCKS - 500;
  scripted.write(ARBITRUM, FIRST_BLOCK + BigInt(liveFrom), [...feesWei.subarray(liveFrom)], {
    anchors: [{ block: FIRST_BLOCK + BigInt(BLOCKS - 1), timestamp: headerSeconds(BLOCKS - 1) }],
  });
  for (let first = 0; first < liveFrom; first += PAGE_BLOCKS) {
    const last = Math.min(liveFrom, first + PAGE_BLOCKS) - 1;
    const anchors = [first, last].map((index) => ({ block: FIRST_BLOCK + BigInt(index), timestamp: headerSeconds(index) }));
    scripted.backfillPage(ARBITRUM, { firstBlock: FIRST_BLOCK + BigInt(first), baseFeesWei: feesWei.subarray(first, last + 1), anchors });
  }
  return scripted;
}

/** Real mainnet base fees (the demo's replay data), repeated to fill the week. */
export function weekOfFees(): BigUint64Array {
  const lines = readFileSync("shared/demo/data/mainnet-17180000-17194650.csv", "utf8").trim().split("\n").slice(1);
  const real = lines.map((line) => BigInt(line.split(",")[1]!));
  return BigUint64Array.from({ length: BLOCKS }, (_, index) => real[index % real.length]!);
}

function get(agent: Agent, port: number, path: string, onData?: (bytes: number) => void): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path, agent, headers: { Authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` } },
      (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          onData?.(chunk.length);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

export async function runStatsBench(requests = 20): Promise<BenchRow[]> {
  const feesWei = weekOfFees();
  const scripted = followWeek(feesWei);
  const server = createApiServer({
    source: scripted.service,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: silentLogger,
    port: 0,
    rateLimit: { requestsPerSecond: 0, burst: 1 },
  });
  const { port } = await server.listen();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const path = `/networks/${ARBITRUM}/baseFeeStats?window=7d&buckets=672`;
    const statsMs: number[] = [];
    const statsCpuMs: number[] = [];
    const sortMs: number[] = [];
    const sortCpuMs: number[] = [];
    const cpuMsSince = (start: NodeJS.CpuUsage) => {
      const { user, system } = process.cpuUsage(start);
      return (user + system) / 1000;
    };
    const scratch = new BigUint64Array(BLOCKS);
    // Warm-up: the first requests compile the code paths.
    for (let run = 0; run < 3; run++) await get(agent, port, path);
    for (let run = 0; run < requests; run++) {
      let startedAt = performance.now();
      let cpuAt = process.cpuUsage();
      const answer = await get(agent, port, path);
      statsMs.push(performance.now() - startedAt);
      statsCpuMs.push(cpuMsSince(cpuAt));
      if (answer.status !== 200) throw new Error(`baseFeeStats answered ${answer.status}`);
      scratch.set(feesWei);
      startedAt = performance.now();
      cpuAt = process.cpuUsage();
      scratch.sort();
      sortMs.push(performance.now() - startedAt);
      sortCpuMs.push(cpuMsSince(cpuAt));
    }

    // The CSV of the whole week, to a client that reads at once, beside the same lines made in this process alone.
    let startedAt = performance.now();
    const csv = await get(agent, port, `/networks/${ARBITRUM}/baseFeeHistory.csv`);
    const csvSeconds = (performance.now() - startedAt) / 1000;
    startedAt = performance.now();
    let madeBytes = 0;
    for (let index = 0; index < BLOCKS; index++) {
      madeBytes += `${Number(FIRST_BLOCK) + index},${headerSeconds(index)},${toGweiString(feesWei[index]!)}\n`.length;
    }
    const madeSeconds = (performance.now() - startedAt) / 1000;

    return [
      {
        name: `baseFeeStats: 7 days in 672 buckets over ${BLOCKS.toLocaleString("en")} blocks (0.25 s apart), through the server (median of ${requests})`,
        value: median(statsMs),
        unit: "ms",
        baselineName: "one BigUint64Array.sort of the same fees",
        baseline: median(sortMs),
        goal: "< 50 ms",
      },
      {
        // CPU time is what the request costs whatever else the machine runs; wall time grows with its load.
        name: "baseFeeStats: the same, CPU time of server and client (median)",
        value: median(statsCpuMs),
        unit: "ms",
        baselineName: "one BigUint64Array.sort of the same fees",
        baseline: median(sortCpuMs),
        goal: "—",
      },
      {
        name: `baseFeeHistory.csv: the same week streamed to a client (${(csv.bytes / 1e6).toFixed(0)} MB)`,
        value: csv.bytes / 1e6 / csvSeconds,
        unit: "MB/s",
        baselineName: "the same lines made in one loop, no server",
        baseline: madeBytes / 1e6 / madeSeconds,
        goal: "—",
      },
    ];
  } finally {
    agent.destroy();
    await server.close();
  }
}
