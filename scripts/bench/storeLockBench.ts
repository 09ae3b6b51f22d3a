// Another process holding the history file's write lock for 15 s (BEGIN EXCLUSIVE in a real second process, as
// another gasfees or any SQLite client on the same config folder may): /healthz latency while blocks keep arriving
// every 250 ms, beside the same 15 s without the lock in the same run, and the blocks missing from the file once the
// lock is released. The real FeeService (its feed scripted), the real store and the real server on an ephemeral port,
// in this process: a write that waited on the event loop would delay every answer measured here.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HistoryStore } from "../../shared/history/historyStore.ts";
import { createApiServer } from "../../shared/http/server.ts";
import { ApiKeyring } from "../../shared/keys/apiKeyring.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { scriptedService } from "../../test/support/scriptedFeed.ts";
import { startWriter } from "../../test/support/storeWriterProcess.ts";
import { waitFor } from "../../test/support/waitFor.ts";
import type { BenchRow } from "./benchRow.ts";
import { MAINNET_BASE_FEES_FOR_BENCH } from "./benchServersData.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const LOCK_MS = 15_000;
const BLOCK_MS = 250;
const FIRST_BLOCK = 2_000_000n;

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] ?? Number.NaN;

export async function runStoreLockBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "gasfees-store-lock-"));
  const file = join(dir, "history.sqlite");
  const store = HistoryStore.open(file);
  const scripted = scriptedService([{ chainId: 1, name: "Arbitrum-like", blockTimeMs: BLOCK_MS, statsWindowBlocks: 500 }], { store });
  const server = createApiServer({ source: scripted.service, keyring: new ApiKeyring([{ key: KEY }]), logger: silentLogger, port: 0 });
  const { url } = await server.listen();
  const fees = MAINNET_BASE_FEES_FOR_BENCH();
  let next = FIRST_BLOCK;
  const mine = () => {
    scripted.write(1, next, [fees[Number(next % BigInt(fees.length))]!]);
    next++;
  };
  for (let i = 0; i < 500; i++) mine();
  const miner = setInterval(mine, BLOCK_MS);
  /** /healthz asked back to back for `ms`: each answer's latency. */
  const healthzFor = async (ms: number) => {
    const latencies: number[] = [];
    const endAt = performance.now() + ms;
    while (performance.now() < endAt) {
      const startedAt = performance.now();
      const answer = await fetch(`${url}/healthz`);
      await answer.arrayBuffer();
      latencies.push(performance.now() - startedAt);
    }
    return latencies;
  };
  try {
    const unlocked = await healthzFor(LOCK_MS);
    const locker = startWriter(["lock", file]);
    try {
      await locker.nextLine((line) => line === "locked");
      const locked = await healthzFor(LOCK_MS);
      locker.child.stdin!.write("release\n");
      await locker.nextLine((line) => line === "released");
      clearInterval(miner);
      const newest = next - 1n;
      await waitFor(
        "the blocks kept during the lock to reach the file",
        async () => {
          const networks = (await (await fetch(`${url}/v3/${KEY}/networks`)).json()) as NetworkStatus[];
          return networks[0]!.history.store.unsavedBlocks === 0;
        },
        60_000,
      );
      const held = store.heldRanges(1).reduce((sum, range) => sum + (range.toBlock < FIRST_BLOCK ? 0n : range.toBlock - range.fromBlock + 1n), 0n);
      const missing = Number(newest - FIRST_BLOCK + 1n - held);
      return [
        {
          name: `/healthz p99 while another process holds the history file's write lock for 15 s (a block every ${BLOCK_MS} ms; ${locked.length} answers)`,
          value: p99(locked),
          unit: "ms",
          baselineName: "the same 15 s without the lock",
          baseline: p99(unlocked),
          goal: "< 50 ms",
        },
        {
          name: "blocks missing from the history file once the lock is released",
          value: missing,
          unit: "blocks",
          baselineName: "none missing",
          baseline: 0,
          goal: "0",
        },
      ];
    } finally {
      locker.child.kill("SIGKILL");
    }
  } finally {
    clearInterval(miner);
    await server.close();
    await scripted.service.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
