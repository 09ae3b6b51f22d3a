// Endpoints that lie with well-formed answers, against the real service (startLocalService: the real HTTP server,
// feeds, backfill and history store on a file), seen only through its HTTP API: a head a million blocks ahead, a head
// far behind, blocks rewritten deeper than the chain reorganises, another chain's id and blocks, headers dated in the
// future, block numbers near 2^53; with one endpoint and with two. The endpoints are test/support/hostileRpcServer.ts
// (no real node can be made to lie), each mining a block every MINE_EVERY_MS as a live chain does. For each lie the
// suite asserts what /networks, the fee endpoints and the CSV show during it and after it, and that a restart on the
// same history file holds nothing the lie brought.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { RunningService } from "../../shared/app/startService.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";
import { startHostileRpcServer, type HostileMode, type HostileRpcServer } from "../support/hostileRpcServer.ts";
import { expectedGwei } from "../support/independentFees.ts";
import { startLocalService } from "../support/startLocalService.ts";

const KEY = "0123456789abcdef0123456789abcdef";
/** A block a second, as the chains' timestamps go (a second apart at least): their blocks are never dated ahead of the clock. */
const MINE_EVERY_MS = 1000;
const LONG_MS = 60_000;
/** Chains: one endpoint; two endpoints (the liar first); a shallow reorganisation depth; headers from the future; near 2^53. */
const ONE = 41_001;
const TWO = 41_002;
const SHALLOW = 41_003;
const FUTURE = 41_004;
const HIGH = 41_005;
const HIGH_HEAD = 2n ** 53n - 2_000n;
const FUTURE_SECONDS = 14 * 60;

interface EndpointState {
  readonly url: string;
  readonly state: string;
  readonly active: boolean;
  readonly lastError?: string;
}
interface NetworkState {
  readonly chainId: number;
  readonly state: string;
  readonly newestBlock: string | null;
  readonly dataAgeMs: number | null;
  readonly statsToBlock: string | null;
  readonly history: { readonly newestBlock: string | null; readonly newestTime: number | null };
  readonly endpoints: readonly EndpointState[];
}

const dir = mkdtempSync(join(tmpdir(), "gasfees-lying-rpc-"));
const historyFile = join(dir, "history.sqlite");
const servers = new Map<number, HostileRpcServer[]>();
let service: RunningService;
let miner: NodeJS.Timeout;

const plans = (): ChainPlan[] => {
  const plan = (chainId: number, extra: Partial<ChainPlan> = {}): ChainPlan => ({
    chainId,
    name: `Lying ${chainId}`,
    rpcUrls: servers.get(chainId)!.map((server) => server.httpUrl),
    blockTimeMs: 1000,
    statsWindowBlocks: 500,
    historyHorizon: "1h",
    pollIntervalMs: 200,
    requestTimeoutMs: 2000,
    ...extra,
  });
  return [plan(ONE), plan(TWO), plan(SHALLOW, { reorgDepthBlocks: 4 }), plan(FUTURE), plan(HIGH)];
};

const start = async () => {
  service = await startLocalService(plans(), [{ key: KEY }], { historyFile });
};

before(async () => {
  const clock = { timestamps: "clock" as const };
  servers.set(ONE, [await startHostileRpcServer({ chainId: ONE, head: 700n, ...clock })]);
  servers.set(TWO, [await startHostileRpcServer({ chainId: TWO, head: 700n, ...clock }), await startHostileRpcServer({ chainId: TWO, head: 700n, ...clock })]);
  servers.set(SHALLOW, [await startHostileRpcServer({ chainId: SHALLOW, head: 700n, ...clock })]);
  servers.set(FUTURE, [await startHostileRpcServer({ chainId: FUTURE, head: 700n, ...clock, headerAheadSeconds: FUTURE_SECONDS })]);
  servers.set(HIGH, [await startHostileRpcServer({ chainId: HIGH, head: HIGH_HEAD, ...clock })]);
  miner = setInterval(() => {
    for (const chain of servers.values()) for (const server of chain) server.mine();
  }, MINE_EVERY_MS);
  await start();
  await Promise.all([...servers.keys()].map((chainId) => caughtUp(chainId)));
});

after(async () => {
  clearInterval(miner);
  await service?.stop();
  await Promise.all([...servers.values()].flat().map((server) => server.close()));
  rmSync(dir, { recursive: true, force: true });
});

const honest = (chainId: number) => servers.get(chainId)!.at(-1)!;

async function network(chainId: number): Promise<NetworkState> {
  const answer = await callApi<NetworkState[]>(service.url, "/networks", KEY);
  assert.equal(answer.status, 200);
  return answer.body.find((entry) => entry.chainId === chainId)!;
}

/** Waits until the chain is ok and its newest block is within a block of the honest endpoints' head. */
async function caughtUp(chainId: number): Promise<NetworkState> {
  return waitFor(
    `chain ${chainId} following its honest head`,
    async () => {
      const state = await network(chainId);
      const newest = state.newestBlock === null ? -1n : BigInt(state.newestBlock);
      return state.state === "ok" && newest >= honest(chainId).head - 1n ? state : undefined;
    },
    { timeoutMs: LONG_MS, everyMs: 50 },
  );
}

/** The CSV's rows: block, timestamp and fee, checked to be in order, without duplicates. */
async function csvRows(chainId: number): Promise<{ block: bigint; timestamp: number; gwei: string }[]> {
  const answer = await fetch(`${service.url}/networks/${chainId}/baseFeeHistory.csv`, {
    headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` },
  });
  assert.equal(answer.status, 200);
  const rows = (await answer.text())
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [block = "", timestamp = "", gwei = ""] = line.split(",");
      return { block: BigInt(block), timestamp: Number(timestamp), gwei };
    });
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i]!.block > rows[i - 1]!.block, `the CSV's blocks ascend (${rows[i - 1]!.block}, ${rows[i]!.block})`);
  return rows;
}

/** Every block the API holds for the chain exists on the honest chain, with the honest chain's base fee. */
async function holdsOnlyTheTruth(chainId: number): Promise<void> {
  const server = honest(chainId);
  const rows = await csvRows(chainId);
  assert.ok(rows.length >= 500, `the CSV holds the chain's blocks (${rows.length})`);
  for (const row of rows) {
    assert.ok(row.block <= server.head, `block ${row.block} is above the chain's head ${server.head}`);
    assert.equal(row.gwei, expectedGwei(server.baseFeeWei(row.block)), `block ${row.block}'s fee`);
  }
  const state = await network(chainId);
  assert.notEqual(state.history.newestBlock, null);
  // The newest block and the window's are null right after a restart, until the feed's first answer.
  for (const block of [state.newestBlock, state.statsToBlock, state.history.newestBlock]) {
    assert.ok(block === null || BigInt(block) <= server.head, `${block} is at most the chain's head ${server.head}`);
  }
  const history = await callApi<string[]>(service.url, `/networks/${chainId}/baseFeeHistory`, KEY);
  if (history.status === 200) assert.ok(BigInt(history.headers.get("x-block-number")!) <= server.head);
}

/** Turns `liar` to `mode` until the service has set it aside for `reason` (after `answers` lies), checks `during`, then turns it honest. */
async function whileLying(
  chainId: number,
  liar: HostileRpcServer,
  mode: HostileMode,
  expected: { endpointState: string; reason: RegExp; chainState: string },
  during: (state: NetworkState) => Promise<void>,
): Promise<void> {
  await caughtUp(chainId);
  await liar.turn(mode);
  try {
    const state = await waitFor(
      `chain ${chainId}'s endpoint ${expected.endpointState} (${expected.reason}) under ${mode}`,
      async () => {
        const now = await network(chainId);
        const endpoint = now.endpoints.find((candidate) => candidate.url === liar.httpUrl)!;
        return liar.hostileAnswers >= 2 &&
          now.state === expected.chainState &&
          endpoint.state === expected.endpointState &&
          expected.reason.test(endpoint.lastError ?? "")
          ? now
          : undefined;
      },
      { timeoutMs: LONG_MS, everyMs: 50 },
    );
    await during(state);
    await holdsOnlyTheTruth(chainId);
  } finally {
    await liar.turn("honest");
  }
  await caughtUp(chainId);
  await holdsOnlyTheTruth(chainId);
}

test(
  "one endpoint claiming a head a million blocks ahead is set aside: the chain is degraded, serves its last good data, and follows again once the endpoint is honest",
  { timeout: LONG_MS * 3 },
  async () => {
    const server = honest(ONE);
    await whileLying(
      ONE,
      server,
      "head-ahead",
      { endpointState: "suspect", reason: /blocks ahead of block \d+, the newest the chain has shown/, chainState: "degraded" },
      async (state) => {
        assert.equal(state.endpoints[0]!.active, false);
        const fee = await callApi(service.url, `/networks/${ONE}/busyThreshold`, KEY);
        assert.equal(fee.status, 200, "the last good data is served");
      },
    );
  },
);

test("two endpoints, the first lying a million blocks ahead: the honest one wins, the chain stays ok", { timeout: LONG_MS * 3 }, async () => {
  const [liar, truthful] = servers.get(TWO)!;
  await whileLying(TWO, liar!, "head-ahead", { endpointState: "suspect", reason: /blocks ahead/, chainState: "ok" }, async () => {
    // While the liar is set aside, the chain goes on through the honest endpoint, block by block.
    const through = truthful!.head + 2n;
    await waitFor(
      `chain ${TWO} at block ${through} through the honest endpoint`,
      async () => {
        const state = await network(TWO);
        const active = state.endpoints.find((endpoint) => endpoint.active);
        return state.state === "ok" && active?.url === truthful!.httpUrl && BigInt(state.newestBlock!) >= through ? true : undefined;
      },
      { timeoutMs: LONG_MS, everyMs: 50 },
    );
  });
});

test("a head 10,000 blocks behind is set aside, and the data's age grows: nothing it says counts as fresh", { timeout: LONG_MS * 3 }, async () => {
  const server = honest(ONE);
  await whileLying(
    ONE,
    server,
    "head-behind",
    { endpointState: "suspect", reason: /blocks behind block \d+, the newest the chain has shown/, chainState: "degraded" },
    async (state) => {
      const first = await callApi(service.url, `/networks/${ONE}/busyThreshold`, KEY);
      const answersThen = server.hostileAnswers;
      // The endpoint is asked again (its checks while set aside) as blocks are mined, and still nothing is new data.
      await waitFor("the lying endpoint asked twice more", () => (server.hostileAnswers >= answersThen + 2 ? true : undefined), {
        timeoutMs: LONG_MS,
        everyMs: 50,
      });
      const later = await callApi(service.url, `/networks/${ONE}/busyThreshold`, KEY);
      assert.equal(later.headers.get("last-modified"), first.headers.get("last-modified"));
      assert.equal(later.headers.get("x-block-number"), String(state.newestBlock));
      assert.ok(Number(later.headers.get("x-data-age-ms")) > Number(first.headers.get("x-data-age-ms")));
    },
  );
});

test("blocks rewritten deeper than the chain reorganises are not believed", { timeout: LONG_MS * 3 }, async () => {
  await whileLying(
    SHALLOW,
    honest(SHALLOW),
    "rewound",
    { endpointState: "suspect", reason: /deeper than the chain reorganises \(4 blocks\)/, chainState: "degraded" },
    async () => {},
  );
});

test(
  "an endpoint that starts answering another chain's id and blocks is never used for this chain, and none of its blocks is kept",
  { timeout: LONG_MS * 3 },
  async () => {
    await whileLying(
      ONE,
      honest(ONE),
      "other-chain",
      { endpointState: "wrong-chain", reason: /serves chain 41002, not chain 41001/, chainState: "degraded" },
      async () => {},
    );
  },
);

test("headers dated 14 minutes ahead of the clock date no block in the future", { timeout: LONG_MS }, async () => {
  await caughtUp(FUTURE);
  const rows = await csvRows(FUTURE);
  const nowSeconds = Date.now() / 1000;
  const latest = Math.max(...rows.map((row) => row.timestamp));
  assert.ok(latest <= nowSeconds + 30, `the newest timestamp is ${Math.round(latest - nowSeconds)} s ahead of the clock`);
  const state = await network(FUTURE);
  assert.ok(state.history.newestTime! <= nowSeconds + 30);
});

test("block numbers near 2^53 are followed, served and exported", { timeout: LONG_MS }, async () => {
  const state = await caughtUp(HIGH);
  assert.ok(BigInt(state.newestBlock!) > HIGH_HEAD);
  const history = await callApi<string[]>(service.url, `/networks/${HIGH}/baseFeeHistory`, KEY);
  assert.equal(history.status, 200);
  assert.equal(history.body.length, 500);
  const stats = await callApi<unknown[]>(service.url, `/networks/${HIGH}/baseFeeStats?window=1h&buckets=10`, KEY);
  assert.equal(stats.status, 200);
  await holdsOnlyTheTruth(HIGH);
});

test("a restart on the same history file holds nothing any lie brought, and follows every chain again", { timeout: LONG_MS * 3 }, async () => {
  await service.stop();
  await start();
  for (const chainId of [ONE, TWO, SHALLOW]) {
    await holdsOnlyTheTruth(chainId);
    await caughtUp(chainId);
    await holdsOnlyTheTruth(chainId);
  }
});
