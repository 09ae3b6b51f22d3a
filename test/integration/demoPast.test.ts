// `npm run serve -- --demo` as a user starts it: from the moment it says it listens, the demo chain holds weeks of past
// hourly summaries (real mainnet samples, shipped in shared/demo/data, moved forward by whole weeks), so that the
// outlook answers and the cheapest hours have weeks to show in the demo's first minute. The summaries are checked
// against the shipped samples read here, hour by hour.
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { serveScriptArguments } from "../../scripts/bench/serveProcess.ts";
import { toGweiString } from "../../shared/core/fees/gwei.ts";
import { nearestRank } from "../../shared/core/fees/percentile.ts";
import { DEMO_PAST, loadDemoPastSamples } from "../../shared/demo/demoPastSummaries.ts";
import type { HourlyStats } from "../../shared/wire/hourlyStats.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { pendingIssueOf } from "../support/apiContract.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const HOUR = 3_600;
const WEEK = 7 * 86_400;
/** The first start may bundle the service (esbuild) before it listens. */
const LISTEN_TIMEOUT_MS = 180_000;

const children: ChildProcessWithoutNullStreams[] = [];
after(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
});

/** Starts the demo and resolves with its address once it prints the listening line, and its stderr so far. */
async function startDemo(): Promise<{ url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [...serveScriptArguments(), "--demo", "--port", "0", "--api-key", KEY], {
    env: {
      ...process.env,
      GASFEES_CONFIG_DIR: await mkdtemp(join(tmpdir(), "gasfees-demo-past-")),
      GASFEES_PORT: "",
      GASFEES_LOG_LEVEL: "info",
      NODE_TEST_CONTEXT: "",
    },
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const url = await waitFor(`the listening line (stderr so far: ${stderr})`, () => /^gasfees listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout)?.[1], {
    timeoutMs: LISTEN_TIMEOUT_MS,
    everyMs: 25,
  });
  return { url, stderr: () => stderr };
}

const hourlyStatsPending = pendingIssueOf("/networks/{chainId}/hourlyStats");
const outlookPending = pendingIssueOf("/networks/{chainId}/outlook");

test(
  "--demo: once it listens, /hourlyStats holds weeks of the shipped samples' hours, moved by the weeks its log names",
  { skip: hourlyStatsPending === undefined ? false : `GET /hourlyStats is pending (${hourlyStatsPending})` },
  async () => {
    const demo = await startDemo();
    // Asked at once: the past is written before the feed starts, so the listening line is the event that it is there.
    const answer = await callApi<HourlyStats>(demo.url, "/networks/31337/hourlyStats", KEY);
    assert.equal(answer.status, 200);
    const past = answer.body.filter((row) => row.sampled);
    assert.ok(past.length > 0, "the demo's past: hourly summaries of sampled blocks");
    const days = (past.at(-1)!.start + HOUR - past[0]!.start) / 86_400;
    assert.ok(days >= 14, `${days.toFixed(1)} days of past summaries`);
    assert.ok(days <= DEMO_PAST.weeks * 7);
    assert.ok(past.length >= 14 * 24, `${past.length} hours`);

    const weeks = Number(/moved (\d+) weeks forward/.exec(demo.stderr())?.[1]);
    assert.ok(Number.isInteger(weeks) && weeks > 0, `the log names the shift: ${demo.stderr()}`);
    const byHour = new Map<number, bigint[]>();
    for (const sample of loadDemoPastSamples()) {
      const start = Math.floor(sample.timestamp / HOUR) * HOUR + weeks * WEEK;
      byHour.set(start, [...(byHour.get(start) ?? []), sample.baseFee]);
    }
    for (const row of past) {
      const fees = byHour.get(row.start);
      assert.ok(fees !== undefined, `hour ${row.start} is a shipped sample's, moved ${weeks} weeks`);
      const sorted = [...fees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      assert.deepEqual(
        [row.blocks, row.min, row.p50, row.max, row.last],
        [fees.length, toGweiString(sorted[0]!), toGweiString(nearestRank(sorted, 50)), toGweiString(sorted.at(-1)!), toGweiString(fees.at(-1)!)],
        `hour ${row.start}`,
      );
    }
  },
);

test(
  "--demo: /outlook answers 200 as soon as /networks says the chain has data, not NOT_ENOUGH_HISTORY",
  { skip: outlookPending === undefined ? false : `GET /outlook is pending (${outlookPending})` },
  async () => {
    const demo = await startDemo();
    // Until its first block the chain has no data (503 NO_DATA, as every fee answer): /networks says when it has.
    await waitFor("the demo chain's first data", async () => {
      const networks = await callApi<NetworkStatus[]>(demo.url, "/networks", KEY);
      return networks.body.find((network) => network.chainId === 31337)?.state === "ok" ? true : undefined;
    });
    // Then at once: the demo's weeks of past are there, no history needs to arrive first.
    const answer = await callApi<{ code?: string }>(demo.url, "/networks/31337/outlook?within=6h", KEY);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  },
);
