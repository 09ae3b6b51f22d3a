// What a restart asks of the chain's endpoint, on a chain dated now and on one dated in the past (a replay of 2023's
// blocks, as the demo's): the real service on a history file, stopped, the chain going on 40 blocks without it, then
// started again. The endpoint is the project's stand-in JSON-RPC server (test/support/syntheticChainServer.ts: any
// number of blocks, dated as the test says), behind a proxy that records every call. The restart asks for the 40
// blocks it missed and its overlap, and for no block it holds: not the newest 500 again, not a backfill page.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { createLogger } from "../../shared/log/logger.ts";
import { DEFAULT_OVERLAP_BLOCKS } from "../../shared/rpc/feed/chainFeed.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { startFaultProxy } from "../support/faultProxy.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { startSyntheticChainServer } from "../support/syntheticChainServer.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const HELD = 9_000n;
const MISSED = 40n;
const dir = mkdtempSync(join(tmpdir(), "gasfees-restart-requests-"));
after(() => rmSync(dir, { recursive: true, force: true }));

async function statusOf(url: string, chainId: number): Promise<NetworkStatus | undefined> {
  const answer = await callApi<NetworkStatus[]>(url, "/networks", KEY);
  return answer.status === 200 ? answer.body.find((network) => network.chainId === chainId) : undefined;
}

/** A logger whose lines a test can wait for. */
function recordingLogger() {
  const lines: string[] = [];
  return { lines, logger: createLogger("info", (line) => lines.push(line)) };
}

const cases = [
  { name: "dated now", chainId: 7001, timestampOf: (now: number) => (block: bigint) => now - Number(HELD + MISSED - block) },
  { name: "dated in 2023 (a replay)", chainId: 7002, timestampOf: () => (block: bigint) => 1_682_000_000 + Number(block) * 12 },
];

for (const chain of cases) {
  test(
    `a restart on a chain ${chain.name} asks for the ${MISSED} blocks it missed and its overlap, and for no block it holds`,
    { timeout: 180_000 },
    async (t) => {
      const now = Math.floor(Date.now() / 1000);
      const server = await startSyntheticChainServer({ chainId: chain.chainId, head: HELD, timestampOf: chain.timestampOf(now) });
      t.after(() => server.close());
      const proxy = await startFaultProxy(server.url);
      t.after(() => proxy.close());
      const plan: ChainPlan = { chainId: chain.chainId, name: "Stand-in", rpcUrls: [proxy.url], blockTimeMs: 1_000 };
      const historyFile = join(dir, `history-${chain.chainId}.sqlite`);
      const backfill = { requestsPerSecond: 1_000 };

      const first = await startLocalService([plan], [{ key: KEY }], { historyFile, backfill });
      try {
        await waitFor(
          "the whole chain held",
          async () => {
            const status = await statusOf(first.url, chain.chainId);
            const run = status?.history.backfill;
            return status?.history.oldestBlock === "0" && status.newestBlock === String(HELD) && run?.running === false && run.progress === 1
              ? true
              : undefined;
          },
          120_000,
        );
      } finally {
        await first.stop();
      }

      server.head = HELD + MISSED;
      proxy.resetCounts();
      const { lines, logger } = recordingLogger();
      const second = await startLocalService([plan], [{ key: KEY }], { historyFile, backfill }, logger);
      try {
        await waitFor(
          `block ${HELD + MISSED}`,
          async () => ((await statusOf(second.url, chain.chainId))?.newestBlock === String(HELD + MISSED) ? true : undefined),
          60_000,
        );
        // The backfill looked at what is held and found it whole (or asked for a page, which the test then refuses).
        const backfillPage = () => proxy.calls().some((call) => call.method === "eth_feeHistory" && call.params[1] !== "latest");
        await waitFor(
          "the backfill's verdict",
          () => (lines.some((line) => line.includes("nothing to backfill")) || backfillPage() ? true : undefined),
          60_000,
        );
        const status = (await statusOf(second.url, chain.chainId))!;
        assert.equal(status.history.blocks, Number(HELD + MISSED) + 1, "every block once, no gap");
        const feeHistory = proxy.calls().filter((call) => call.method === "eth_feeHistory");
        const asked = feeHistory.map((call) => Number(BigInt(call.params[0] as string)));
        t.diagnostic(`eth_feeHistory calls: ${feeHistory.length}, blocks asked: ${asked.join(", ")}`);
        assert.ok(
          feeHistory.every((call) => call.params[1] === "latest"),
          `no request for older blocks: no backfill page, no walk back (${JSON.stringify(feeHistory.map((call) => call.params.slice(0, 2)))})`,
        );
        const needed = Number(MISSED) + DEFAULT_OVERLAP_BLOCKS;
        assert.ok(
          asked[0]! >= needed && asked[0]! <= needed + 8,
          `the first request asks for the ${MISSED} missed and the overlap (${needed}), not more (${asked[0]})`,
        );
        assert.ok(
          asked.slice(1).every((blocks) => blocks <= DEFAULT_OVERLAP_BLOCKS + 8),
          `later requests ask for the new blocks and the overlap only (${asked.slice(1).join(", ")})`,
        );
      } finally {
        await second.stop();
      }
    },
  );
}
