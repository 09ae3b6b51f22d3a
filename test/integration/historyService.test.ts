// The history end to end: the real service following a real Hardhat node that replays real mainnet blocks with their
// real timestamps (3-4 May 2023), its history kept in a real SQLite file. The 24-hour statistics window, a restart that
// fetches only what it missed, a reorganisation that replaces stored fees, and a process killed with SIGKILL in the
// middle of a backfill, which the next start resumes.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { RunningService } from "../../shared/app/startService.ts";
import { HistoryStore } from "../../shared/history/historyStore.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";
import { type FaultProxy, startFaultProxy } from "../support/faultProxy.ts";
import { expectedGwei, expectedPercentile } from "../support/independentFees.ts";
import { startServiceProcess } from "../support/serviceProcess.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { startTimedTestChain, type TimedTestChain } from "../support/timedTestChain.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const DAY = 86_400;
/** 26 hours of mainnet blocks: more than the 24-hour window, all within the 7-day horizon. */
const BLOCKS = 7_800;
/** The backfill's cap lifted for speed (its 2 calls/s are proved in backfillHardhat.test.ts). */
const BACKFILL = { requestsPerSecond: 200 };
/** Post-Merge blocks, anchors at the ends of 1,024-block pages: the README's measured interpolation error is 90 s. */
const BOUNDARY_SLACK_BLOCKS = 10;

let chain: TimedTestChain;
/** The chain's head: the replay goes on past `chain.newestBlock` with the next rows of the same data. */
let newest: bigint;
let proxy: FaultProxy;
let dir: string;
const historyFile = () => join(dir, "history.sqlite");

before(async () => {
  chain = await startTimedTestChain(BLOCKS);
  newest = chain.newestBlock;
  proxy = await startFaultProxy(chain.node.url);
  dir = mkdtempSync(join(tmpdir(), "gasfees-history-"));
});

after(async () => {
  await proxy?.close();
  await chain?.node.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Mines the replay's next `count` blocks (real fees and timestamps) and returns the new head. */
async function mineMore(count: number, feeBumpWei = 0n): Promise<bigint> {
  for (let i = 0; i < count; i++) {
    newest++;
    await chain.node.request("hardhat_setNextBlockBaseFeePerGas", [`0x${(chain.baseFeeOf(newest) + feeBumpWei).toString(16)}`]);
    await chain.node.request("evm_mine", [chain.timestampOf(newest)]);
  }
  return newest;
}

/** The backfill's eth_feeHistory calls: pages ending at a block number, without tips (the feed asks for "latest"). */
function backfillPageCalls(): number {
  return proxy.calls().filter((call) => call.method === "eth_feeHistory" && call.params[1] !== "latest").length;
}

const plan = (): ChainPlan => ({ chainId: 1, name: "Mainnet replay", rpcUrls: [proxy.url], blockTimeMs: 12_000, pollIntervalMs: 300 });

async function statusOf(url: string): Promise<NetworkStatus | undefined> {
  const answer = await callApi<NetworkStatus[]>(url, "/networks", KEY);
  return answer.status === 200 ? answer.body.find((network) => network.chainId === 1) : undefined;
}

/** Until the history holds every block from the genesis to the head at `head`, and the backfill rests. */
async function untilBackfilled(url: string, head: bigint): Promise<NetworkStatus> {
  return waitFor(
    "the history to hold every block from the genesis",
    async () => {
      const status = await statusOf(url);
      const whole = status?.history.blocks === Number(head) + 1 && status.newestBlock === String(head);
      return whole && !status.history.backfill.running ? status : undefined;
    },
    // A few seconds at this pace; a backfill that waits for its next minute's check would miss it.
    45_000,
  );
}

describe("the history over replayed mainnet blocks", () => {
  let service: RunningService;

  before(async () => {
    service = await startLocalService([plan()], [{ key: KEY }], { historyFile: historyFile(), backfill: BACKFILL });
  });
  after(async () => {
    await service?.stop();
  });

  test(
    "the 24-hour window: its range is the blocks of the newest block's last 24 hours, and every statistic is exact over it",
    { timeout: 180_000 },
    async () => {
      const status = await untilBackfilled(service.url, chain.newestBlock);
      assert.equal(status.statsWindow, "24h");
      assert.equal(status.history.blocks, BLOCKS + 1);
      assert.equal(status.history.newestTime, chain.timestampOf(chain.newestBlock));
      assert.equal(status.history.oldestTime, chain.timestampOf(0n), "the genesis is an anchor: its time is exact");

      const busy = await callApi<{ busyThreshold: string }>(service.url, "/networks/1/busyThreshold", KEY);
      const percentile = await callApi<{ baseFeePercentile: string }>(service.url, "/networks/1/baseFeePercentile", KEY);
      const from = BigInt(busy.headers.get("x-stats-from-block")!);
      const to = BigInt(busy.headers.get("x-stats-to-block")!);
      assert.equal(to, chain.newestBlock);
      assert.equal(busy.headers.get("x-stats-blocks"), String(to - from + 1n));
      // The true boundary: the first block within 24 hours of the newest, by the headers' real timestamps.
      let trueFrom = chain.newestBlock;
      while (chain.timestampOf(trueFrom - 1n) >= chain.timestampOf(chain.newestBlock) - DAY) trueFrom--;
      assert.ok(trueFrom > 200n, "the replay holds more than 24 hours, so the window is not everything held");
      assert.ok(Math.abs(Number(from - trueFrom)) <= BOUNDARY_SLACK_BLOCKS, `window from block ${from}, the real 24-hour boundary is block ${trueFrom}`);
      // Exact over the range it names: a client can recompute it from blocks it can fetch.
      const fees = Array.from({ length: Number(to - from) + 1 }, (_, i) => chain.baseFeeOf(from + BigInt(i)));
      assert.deepEqual(busy.body, { busyThreshold: expectedGwei(expectedPercentile(fees, 90)) });
      assert.deepEqual(percentile.body, { baseFeePercentile: expectedGwei(expectedPercentile(fees, 50)) });
      assert.equal(percentile.headers.get("x-stats-from-block"), String(from));
    },
  );

  test("the store holds every block's exact fee, and the exact timestamps it saw", () => {
    const store = HistoryStore.open(historyFile());
    try {
      const runs = [...store.load(1)];
      assert.deepEqual(
        runs.map((run) => [run.firstBlock, run.baseFeesWei.length]),
        [[0n, BLOCKS + 1]],
      );
      const fees = runs[0]!.baseFeesWei;
      for (let block = 0; block <= BLOCKS; block++) assert.equal(fees[block], chain.baseFeeOf(BigInt(block)), `block ${block}`);
      // Backfilled blocks keep the gas-used ratio eth_feeHistory gives (the replayed blocks are empty: 0).
      const ratios = runs[0]!.gasUsedRatios;
      assert.equal(ratios[1], 0, "block 1, backfilled: its gas-used ratio is stored");
      assert.ok(
        ratios.subarray(1, BLOCKS - 600).every((ratio) => ratio === 0),
        "every backfilled block's ratio is stored",
      );
      const anchors = runs.flatMap((run) => run.anchors);
      assert.ok(anchors.length >= BLOCKS / 1_024, `${anchors.length} anchors`);
      for (const anchor of anchors) assert.equal(anchor.timestamp, chain.timestampOf(anchor.block), `block ${anchor.block}'s anchor`);
    } finally {
      store.close();
    }
  });
});

test("a restart fetches only the blocks it missed, and re-mined blocks replace their stored fees", { timeout: 180_000 }, async () => {
  // What the first service held is in the file; the chain went on without it: 1,500 new blocks (beyond the feed's first
  // answer of 500, so that the backfill must fetch the 1,000 between).
  const heldBefore = newest;
  const head = await mineMore(1_500);
  const snapshot = await chain.node.request<string>("evm_snapshot");
  await mineMore(3);
  proxy.resetCounts();
  const service = await startLocalService([plan()], [{ key: KEY }], { historyFile: historyFile(), backfill: BACKFILL });
  try {
    const status = await untilBackfilled(service.url, newest);
    assert.equal(status.history.blocks, Number(newest) + 1);
    // One page fetches the 1,000 blocks missed (a page holds up to 1,024): nothing already stored is fetched again.
    assert.equal(backfillPageCalls(), 1, `the backfill's pages: ${backfillPageCalls()} (blocks ${heldBefore + 1n}..${newest - 500n} were missing)`);

    // A shallow reorganisation: the newest 3 blocks re-mined with other fees, and one more on top.
    await chain.node.request("evm_revert", [snapshot]);
    newest = head;
    await mineMore(4, 1_000n);
    await waitFor("the re-mined blocks", async () => ((await statusOf(service.url))?.newestBlock === String(newest) ? true : undefined));
  } finally {
    await service.stop();
  }
  const store = HistoryStore.open(historyFile());
  try {
    const runs = [...store.load(1)];
    assert.deepEqual(
      runs.map((run) => [run.firstBlock, run.baseFeesWei.length]),
      [[0n, Number(newest) + 1]],
      "one stretch from the genesis to the head: no duplicates, no gaps",
    );
    const fees = runs[0]!.baseFeesWei;
    for (let block = newest - 3n; block <= newest; block++) assert.equal(fees[Number(block)], chain.baseFeeOf(block) + 1_000n, `re-mined block ${block}`);
    assert.equal(fees[Number(head)], chain.baseFeeOf(head), "the block below them is as it was");
  } finally {
    store.close();
  }
});

test(
  "a service killed with SIGKILL in the middle of a backfill loses nothing stored, and the next start goes on from there",
  { timeout: 240_000 },
  async () => {
    const file = join(dir, "killed.sqlite");
    // Slow enough to be caught mid-way: 2 calls/s (three per page) over ~9 pages.
    const slow = await startServiceProcess([plan()], [{ key: KEY }], { historyFile: file, backfill: { requestsPerSecond: 2 } });
    try {
      await waitFor(
        "a page or two stored",
        async () => {
          const status = await statusOf(slow.url);
          return status && status.history.blocks > 2_600 && status.history.backfill.running ? true : undefined;
        },
        120_000,
      );
    } finally {
      process.kill(slow.pid, "SIGKILL");
      await waitFor("the process to end", () => Promise.resolve(slow.exit ? true : undefined));
    }
    const stored = HistoryStore.open(file);
    const heldBefore = stored.heldRanges(1);
    stored.close();
    assert.ok(heldBefore.length >= 1, "the pages stored before the kill are there");
    const storedBlocks = heldBefore.reduce((sum, range) => sum + Number(range.toBlock - range.fromBlock + 1n), 0);
    assert.ok(storedBlocks >= 2_048, `${storedBlocks} blocks stored before the kill`);
    assert.ok(storedBlocks < Number(newest) + 1, "killed before the backfill was done");

    proxy.resetCounts();
    const service = await startLocalService([plan()], [{ key: KEY }], { historyFile: file, backfill: BACKFILL });
    try {
      const status = await untilBackfilled(service.url, newest);
      assert.equal(status.history.blocks, Number(newest) + 1);
      // Only what was missing: the blocks not stored (less the feed's 500), in pages of up to 1,024 (and one more where
      // a page is cut at a stored stretch).
      const missing = Number(newest) + 1 - storedBlocks - 500;
      assert.ok(backfillPageCalls() <= Math.ceil(missing / 1_024) + heldBefore.length + 1, `${backfillPageCalls()} pages for ${missing} blocks missing`);
    } finally {
      await service.stop();
    }
  },
);
