// What a restart asks of the chain's endpoint: the real service on a history file, stopped, the chain going on 40
// blocks without it, then started again, behind a proxy that records every call. It asks for the blocks it missed and
// its overlap in one request, and nothing else: not the newest 500 again, not a backfill page.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { startEvmNode } from "../../shared/demo/startEvmNode.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";
import { startFaultProxy } from "../support/faultProxy.ts";
import { startLocalService } from "../support/startLocalService.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const dir = mkdtempSync(join(tmpdir(), "gasfees-restart-calls-"));
after(() => rmSync(dir, { recursive: true, force: true }));

async function statusOf(url: string): Promise<NetworkStatus | undefined> {
  const answer = await callApi<NetworkStatus[]>(url, "/networks", KEY);
  return answer.status === 200 ? answer.body.find((network) => network.chainId === 31337) : undefined;
}

test("a restart that missed 40 blocks asks for them and its overlap in one request, and for nothing else", { timeout: 120_000 }, async (t) => {
  const now = Math.floor(Date.now() / 1000);
  // Blocks a second apart up to now, as a live chain's are.
  const node = await startEvmNode({ chainId: 31337, genesis: { timestamp: now - 3_600, baseFeeWei: 1_000_000_000n } });
  t.after(() => node.stop());
  await node.mineBlocks(
    Array.from({ length: 600 }, (_, i) => 1_000_000_000n + BigInt(i) * 1_000n),
    Array.from({ length: 600 }, (_, i) => now - 599 + i),
  );
  const proxy = await startFaultProxy(node.url);
  t.after(() => proxy.close());
  const plan: ChainPlan = { chainId: 31337, name: "Local", rpcUrls: [proxy.url], blockTimeMs: 1_000, pollIntervalMs: 200 };
  const historyFile = join(dir, "history.sqlite");

  const first = await startLocalService([plan], [{ key: KEY }], { historyFile });
  try {
    await waitFor(
      "the whole chain held",
      async () => {
        const status = await statusOf(first.url);
        return status?.history.oldestBlock === "0" && status.newestBlock === "600" && !status.history.backfill.running ? true : undefined;
      },
      60_000,
    );
  } finally {
    await first.stop();
  }

  await node.mineBlocks(Array.from({ length: 40 }, () => 2_000_000_000n));
  proxy.resetCounts();
  const second = await startLocalService([plan], [{ key: KEY }], { historyFile });
  try {
    // The history held is served at once, before any answer of the endpoint.
    const atStart = await statusOf(second.url);
    assert.equal(atStart?.history.newestBlock, "600");
    await waitFor("block 640", async () => ((await statusOf(second.url))?.newestBlock === "640" ? true : undefined), 30_000);
    const status = (await statusOf(second.url))!;
    assert.equal(status.history.blocks, 641, "every block once, no gap");
    const feeHistory = proxy.calls().filter((call) => call.method === "eth_feeHistory");
    const asked = feeHistory.map((call) => Number(BigInt(call.params[0] as string)));
    t.diagnostic(`eth_feeHistory calls: ${feeHistory.length}, blocks asked: ${asked.join(", ")}`);
    assert.ok(
      feeHistory.every((call) => call.params[1] === "latest"),
      "no request for older blocks: no backfill page, no walk back",
    );
    assert.ok(asked[0]! >= 48 && asked[0]! <= 200, `the first request asks for the 40 missed and its overlap, not 500 (${asked[0]})`);
  } finally {
    await second.stop();
  }
});
