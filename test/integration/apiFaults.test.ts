// Fault injection seen from the API: the real service (startService, port 0) follows two real Hardhat chains,
// each through its own fault proxy, while a watcher calls every endpoint of both chains without pause and keeps
// each distinct answer. Whatever an endpoint does (dies, hangs past the request timeout, answers 429/500, garbage,
// absurd fees, reorganises its tip, starts serving another chain), the API never answers 5xx, never serves one
// chain's fees for the other, keeps the last data with its age, says "degraded" in /networks, and catches up
// with no gap or duplicate once the endpoint recovers.
import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, test } from "node:test";
import type { RunningService } from "../../shared/app/startService.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";
import { type FaultMode, type FaultProxy, type Faults, startFaultProxy } from "../support/faultProxy.ts";
import { startTestChain, type TestChain } from "../support/feedHarness.ts";
import { expectedGwei } from "../support/independentFees.ts";
import { startLocalService } from "../support/startLocalService.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const A = 31337;
const B = 31338;
const POLL_INTERVAL_MS = 200;
/** Short, so that a proxy delaying answers by DELAY_PAST_TIMEOUT_MS makes every request time out. */
const REQUEST_TIMEOUT_MS = 700;
const DELAY_PAST_TIMEOUT_MS = 2000;

interface Followed {
  readonly chainId: number;
  readonly chain: TestChain;
  readonly proxy: FaultProxy;
  /** Every base fee (Gwei string) ever mined at each block number, reorganised ones included. */
  readonly everMined: Map<number, Set<string>>;
}

let service: RunningService;
const followed = new Map<number, Followed>();
const get = (chainId: number) => followed.get(chainId)!;

function remember(chainId: number): void {
  const { chain, everMined } = get(chainId);
  chain.feesWei.forEach((fee, block) => {
    let fees = everMined.get(block);
    if (fees === undefined) everMined.set(block, (fees = new Set()));
    fees.add(expectedGwei(fee));
  });
}

async function mine(chainId: number, count: number): Promise<bigint> {
  const newest = await get(chainId).chain.mine(count);
  remember(chainId);
  return newest;
}

before(async () => {
  // Chain B starts 7000 blocks further into the mainnet fees, so that its fees differ from A's at every height.
  const [chainA, chainB] = await Promise.all([startTestChain(520, { chainId: A }), startTestChain(520, { chainId: B, feeOffset: 7000 })]);
  for (const chain of [chainA, chainB]) {
    const proxy = await startFaultProxy(chain.node.url);
    followed.set(chain.node.chainId, { chainId: chain.node.chainId, chain, proxy, everMined: new Map() });
    remember(chain.node.chainId);
  }
  const plan = (chainId: number) => ({
    chainId,
    name: `Local ${chainId}`,
    rpcUrls: [get(chainId).proxy.url],
    blockTimeMs: 1000,
    statsWindowBlocks: 500,
    pollIntervalMs: POLL_INTERVAL_MS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  service = await startLocalService([plan(A), plan(B)], [{ key: KEY }]);
  for (const chainId of [A, B]) await caughtUp(chainId);
});

after(async () => {
  await service?.stop();
  for (const { chain, proxy } of followed.values()) {
    await proxy.close();
    await chain.node.stop();
  }
});

// --- the watcher ---------------------------------------------------------------------------------------------

interface Seen {
  readonly chainId: number;
  readonly path: string;
  readonly status: number;
  readonly blockNumber: string | null;
  readonly body: unknown;
}

const FEE_PATHS = ["baseFeeHistory", "busyThreshold", "baseFeePercentile"] as const;

/** Calls every endpoint of both chains in a loop; keeps each distinct answer (by chain, path, status and ETag). */
function startWatcher(): { stop(): Promise<{ seen: Seen[]; calls: number }> } {
  const seen = new Map<string, Seen>();
  let calls = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const chainId of [A, B]) {
        for (const name of FEE_PATHS) {
          const path = `/networks/${chainId}/${name}`;
          const answer = await callApi(service.url, path, KEY);
          calls++;
          const id = `${path} ${answer.status} ${answer.headers.get("etag")}`;
          if (!seen.has(id)) seen.set(id, { chainId, path, status: answer.status, blockNumber: answer.headers.get("x-block-number"), body: answer.body });
        }
      }
      const networks = await callApi(service.url, "/networks", KEY);
      calls++;
      if (networks.status !== 200)
        seen.set(`/networks ${networks.status} ${calls}`, { chainId: 0, path: "/networks", status: networks.status, blockNumber: null, body: networks.body });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { seen: [...seen.values()], calls };
    },
  };
}

/** Every answer was a 200 whose fees are fees mined on that chain, at those very heights for the history. */
function assertNeverMixedNorFailed(seen: readonly Seen[]): void {
  for (const answer of seen) {
    assert.equal(answer.status, 200, `${answer.path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    if (answer.chainId === 0) continue;
    const { everMined } = get(answer.chainId);
    if (answer.path.endsWith("/baseFeeHistory")) {
      const history = answer.body as string[];
      assert.equal(history.length, 500, `${answer.path}: ${history.length} blocks`);
      const newest = Number(answer.blockNumber);
      history.forEach((fee, i) => {
        const block = newest - history.length + 1 + i;
        assert.ok(
          everMined.get(block)?.has(fee),
          `${answer.path} at block ${newest}: block ${block}'s fee ${fee} was never mined there on chain ${answer.chainId} (a gap, a duplicate, or another chain's fee)`,
        );
      });
    } else {
      const fee = Object.values(answer.body as Record<string, string>)[0]!;
      const anywhere = [...everMined.values()].some((fees) => fees.has(fee));
      assert.ok(anywhere, `${answer.path}: ${fee} is no fee of chain ${answer.chainId}`);
    }
  }
}

let watcher: ReturnType<typeof startWatcher>;
beforeEach(() => {
  watcher = startWatcher();
});
afterEach(async () => {
  const { seen, calls } = await watcher.stop();
  assert.ok(calls > 20, `the watcher made only ${calls} calls`);
  assertNeverMixedNorFailed(seen);
});

// --- helpers -------------------------------------------------------------------------------------------------

interface NetworkState {
  chainId: number;
  state: string;
  newestBlock: string | null;
  dataAgeMs: number | null;
  endpoints: Array<{ state: string; reportedChainId?: number }>;
}

const networkState = async (chainId: number) =>
  (await callApi<NetworkState[]>(service.url, "/networks", KEY)).body.find((network) => network.chainId === chainId)!;

const history = (chainId: number) => callApi<string[]>(service.url, `/networks/${chainId}/baseFeeHistory`, KEY);

/** Waits until the API serves the chain's newest block and checks the whole history against the node's fees. */
async function caughtUp(chainId: number, timeoutMs = 15_000): Promise<void> {
  const { chain } = get(chainId);
  const newest = chain.newestBlock;
  const answer = await waitFor(
    `chain ${chainId} to reach block ${newest}`,
    async () => {
      const current = await history(chainId);
      return current.status === 200 && current.headers.get("x-block-number") === newest.toString() ? current : undefined;
    },
    timeoutMs,
  );
  assert.deepEqual(answer.body, chain.fees(newest - 499n, newest).map(expectedGwei), `chain ${chainId}: no gap, no duplicate, exact fees`);
}

// --- faults --------------------------------------------------------------------------------------------------

const FAULTS: ReadonlyArray<{ name: string; faults: Partial<Faults> }> = [
  ...(["down", "http500", "http429", "malformed", "wrong-shape", "absurd-fees"] satisfies FaultMode[]).map((mode) => ({ name: mode, faults: { mode } })),
  { name: `answers delayed ${DELAY_PAST_TIMEOUT_MS} ms, past the ${REQUEST_TIMEOUT_MS} ms request timeout`, faults: { delayMs: DELAY_PAST_TIMEOUT_MS } },
];

for (const { name, faults } of FAULTS) {
  test(`chain A's endpoint ${name}: last data served with a growing age, degraded, chain B unaffected, then caught up with no gap`, async () => {
    const held = await history(A);
    const { proxy } = get(A);
    proxy.setFaults(faults);
    await mine(A, 3);
    await waitFor("chain A to be reported degraded", async () => ((await networkState(A)).state === "degraded" ? true : undefined));

    const during = await history(A);
    assert.equal(during.status, 200);
    assert.deepEqual(during.body, held.body, "the last data is still served, unchanged");
    assert.equal(during.headers.get("x-block-number"), held.headers.get("x-block-number"));
    const ageBefore = Number(during.headers.get("x-data-age-ms"));
    // Chain B goes on meanwhile, on its own endpoint.
    await mine(B, 2);
    await caughtUp(B);
    assert.equal((await networkState(B)).state, "ok");
    const later = await callApi(service.url, `/networks/${A}/busyThreshold`, KEY);
    assert.equal(later.status, 200);
    assert.ok(
      Number(later.headers.get("x-data-age-ms")) > ageBefore,
      `the age grows while the endpoint fails (${ageBefore} then ${later.headers.get("x-data-age-ms")})`,
    );
    const state = await networkState(A);
    assert.equal(state.state, "degraded");
    assert.equal(state.endpoints[0]!.state, "failing");
    assert.ok(state.dataAgeMs !== null && state.dataAgeMs > 0);

    proxy.reset();
    await mine(A, 2);
    await caughtUp(A);
    assert.equal((await networkState(A)).state, "ok");
  });
}

test("a reorganised tip on chain A: the re-mined blocks' fees replace the old ones, no gap, no stale fee", async () => {
  const { chain } = get(A);
  const snapshot = await chain.node.request<string>("evm_snapshot");
  const orphaned = [77_777_777_771n, 77_777_777_772n, 77_777_777_773n];
  for (const fee of orphaned) await chain.mineFee(fee);
  remember(A);
  await caughtUp(A);
  assert.equal(await chain.node.request("evm_revert", [snapshot]), true);
  const replacing = [66_666_666_661n, 66_666_666_662n, 66_666_666_663n, 66_666_666_664n];
  for (const fee of replacing) await chain.mineFee(fee);
  remember(A);
  await caughtUp(A);
  const { body } = await history(A);
  assert.deepEqual(body.slice(-4), replacing.map(expectedGwei));
  for (const fee of orphaned) assert.ok(!body.includes(expectedGwei(fee)), `the orphaned fee ${fee} is still served`);
  const median = await callApi<{ baseFeePercentile: string }>(service.url, `/networks/${A}/baseFeePercentile`, KEY);
  assert.equal(median.status, 200);
});

// Last: an endpoint found serving another chain is left alone for the longest backoff (a minute).
test("chain A's endpoint starts serving chain B, and B's reports another chain id after an outage: never mixed, each keeps its own data, degraded", async () => {
  const a = get(A);
  const b = get(B);
  const heldA = await history(A);
  const heldB = await history(B);

  // A misrouted endpoint: A's URL now reaches chain B's node (different fees, different height).
  await mine(B, 40);
  await caughtUp(B);
  a.proxy.retarget(b.chain.node.url);
  await waitFor("chain A to be reported degraded", async () => ((await networkState(A)).state === "degraded" ? true : undefined));
  const stateA = await networkState(A);
  assert.equal(stateA.endpoints[0]!.state, "wrong-chain");
  assert.equal(stateA.endpoints[0]!.reportedChainId, B);

  // B's own endpoint drops, then comes back reporting chain id 1: it must not be used again for B.
  b.proxy.setFaults({ mode: "down" });
  await waitFor("chain B to be reported degraded", async () => ((await networkState(B)).state === "degraded" ? true : undefined));
  const heldBAfter = await history(B);
  b.proxy.setFaults({ mode: "pass", chainId: 1 });
  await mine(B, 3);
  await waitFor("chain B's endpoint to be found reporting chain 1", async () =>
    (await networkState(B)).endpoints[0]!.state === "wrong-chain" ? true : undefined,
  );
  assert.equal((await networkState(B)).state, "degraded");

  const nowA = await history(A);
  const nowB = await history(B);
  assert.equal(nowA.status, 200);
  assert.deepEqual(nowA.body, heldA.body, "chain A keeps its own last data");
  assert.deepEqual(nowB.body, heldBAfter.body, "chain B keeps its own last data");
  assert.notDeepEqual(nowB.body, heldB.body, "chain B had moved on before its outage");
});
