// Endpoints of one chain that tell different stories about its base fees, against the real service (startLocalService:
// the real HTTP server, feeds, backfill and history store on a file), seen only through its HTTP API and the store
// across a restart (CONTRACT.md, "Following chains": endpoints check each other). Each chain is 4,112 blocks a second
// apart up to now, backfilled from its first start, then a block a second. The endpoints are stand-ins
// (test/support/syntheticChainServer.ts): no real node can be made to lie, and these lie self-consistently, their
// headers agreeing with their fee histories. The lies: every base fee doubled, from the second endpoint and from the
// first; a fork 2,000 blocks deep with other hashes and fees; one liar of three; a liar right on eleven blocks in twelve.
// Asserted during each lie: /networks (the chain's state, the liar's), the fee answers (busyThreshold against the
// honest chain's own percentile, X-Data-Disputed), /metrics, and every row of baseFeeHistory.csv; after a restart on
// the same history file with the honest endpoints alone: the store holds the honest chain only (said, not judged, where
// two stories stood and nobody could tell which was true).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test, type TestContext } from "node:test";
import type { RunningService } from "../../shared/app/startService.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import { callApi } from "../support/apiClient.ts";
import { expectedGwei, expectedPercentile } from "../support/independentFees.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { startSyntheticChainServer, type SyntheticChainServer } from "../support/syntheticChainServer.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const LONG_MS = 90_000;
/**
 * How long the service is given to notice a lie that every compared block shows: a sample of one block in 32 at a
 * block a second finds it within 32 s of live blocks, and at once among the backfilled ones.
 */
const NOTICE_MS = 45_000;
/** The newest block at start: blocks 0..4,111, as the issue's reproduction. */
const START_HEAD = 4_111n;
const GWEI = 1_000_000_000n;

/** Chains: [honest, doubled]; [honest, fork]; [doubled, honest]; [doubled, honest, honest]; [right most of the time, honest, honest]. */
const DOUBLED_SECOND = 43_001;
const FORK_SECOND = 43_002;
const DOUBLED_FIRST = 43_003;
const ONE_OF_THREE = 43_004;
const MOSTLY_RIGHT = 43_005;
const FORK_FROM = START_HEAD - 2_000n;

const startS = Math.floor(Date.now() / 1000);
/** A block a second up to now, then one a second as they are mined. */
const timestampOf = (block: bigint) => startS + Number(block - START_HEAD);
const honestFee = (block: bigint) => GWEI + ((block * 7_919n) % 50_000_000_000n);
const doubledFee = (block: bigint) => 2n * honestFee(block);
const forkFee = (block: bigint) => (block > FORK_FROM ? honestFee(block) + 3n * GWEI : honestFee(block));
/** About one block in twelve, scattered (no period a sample could step over). */
const liesOn = (block: bigint) => (block * 2_654_435_761n) % 1_000n < 80n;
const mostlyRightFee = (block: bigint) => (liesOn(block) ? doubledFee(block) : honestFee(block));

interface EndpointState {
  readonly url: string;
  readonly state: string;
  readonly active: boolean;
  readonly lastError?: string;
}
interface NetworkState {
  readonly chainId: number;
  readonly state: string;
  /** The contract's "status (`disputed`)": said as the state, or as a flag beside it. */
  readonly disputed?: boolean;
  readonly disputes?: readonly string[];
  readonly newestBlock: string | null;
  readonly currentBaseFee: string | null;
  readonly busyThreshold: string | null;
  readonly history: {
    readonly oldestBlock: string | null;
    readonly newestBlock: string | null;
    readonly blocks: number;
    readonly backfill: { readonly running: boolean };
  };
  readonly endpoints: readonly EndpointState[];
}

const dir = mkdtempSync(join(tmpdir(), "gasfees-multi-endpoint-fees-"));
const historyFile = join(dir, "history.sqlite");
/** Each chain's endpoints in the order configured, and which of them tell the truth. */
const chains = new Map<number, { readonly servers: SyntheticChainServer[]; readonly honest: SyntheticChainServer[] }>();
let service: RunningService;
let miner: NodeJS.Timeout;

const plan = (chainId: number, servers: readonly SyntheticChainServer[]): ChainPlan => ({
  chainId,
  name: `Several endpoints ${chainId}`,
  rpcUrls: servers.map((server) => server.url),
  blockTimeMs: 1000,
  // The default statistics window (24 hours) holds every block: busyThreshold reads the backfilled pages too.
  historyHorizon: "2h",
  pollIntervalMs: 300,
  requestTimeoutMs: 3000,
});

before(async () => {
  const serve = (chainId: number, baseFeeOf: (block: bigint) => bigint, fork?: { fromBlock: bigint; salt: number }) =>
    startSyntheticChainServer({ chainId, head: START_HEAD, timestampOf, baseFeeOf, blobFees: false, ...(fork ? { fork } : {}) });
  const honest = async (chainId: number, count: number) => Promise.all(Array.from({ length: count }, () => serve(chainId, honestFee)));
  {
    const [truthful] = await honest(DOUBLED_SECOND, 1);
    chains.set(DOUBLED_SECOND, { servers: [truthful!, await serve(DOUBLED_SECOND, doubledFee)], honest: [truthful!] });
  }
  {
    const [truthful] = await honest(FORK_SECOND, 1);
    chains.set(FORK_SECOND, { servers: [truthful!, await serve(FORK_SECOND, forkFee, { fromBlock: FORK_FROM, salt: 0xf0 })], honest: [truthful!] });
  }
  {
    const liar = await serve(DOUBLED_FIRST, doubledFee);
    const truthful = await honest(DOUBLED_FIRST, 1);
    chains.set(DOUBLED_FIRST, { servers: [liar, ...truthful], honest: truthful });
  }
  {
    const liar = await serve(ONE_OF_THREE, doubledFee);
    const truthful = await honest(ONE_OF_THREE, 2);
    chains.set(ONE_OF_THREE, { servers: [liar, ...truthful], honest: truthful });
  }
  {
    const liar = await serve(MOSTLY_RIGHT, mostlyRightFee);
    const truthful = await honest(MOSTLY_RIGHT, 2);
    chains.set(MOSTLY_RIGHT, { servers: [liar, ...truthful], honest: truthful });
  }
  // Every endpoint of every chain mines its block at the same moment: the lies are about fees and hashes, never heads.
  miner = setInterval(() => {
    for (const { servers } of chains.values()) for (const server of servers) server.head += 1n;
  }, 1000);
  service = await startLocalService(
    [...chains].map(([chainId, { servers }]) => plan(chainId, servers)),
    [{ key: KEY }],
    { historyFile },
  );
  await Promise.all([...chains.keys()].map((chainId) => backfilled(chainId)));
});

after(async () => {
  clearInterval(miner);
  await service?.stop();
  await Promise.all([...chains.values()].flatMap(({ servers }) => servers.map((server) => server.close())));
  rmSync(dir, { recursive: true, force: true });
});

const head = () => chains.get(DOUBLED_SECOND)!.servers[0]!.head;

/** Whether /networks says the chain is disputed: its state `disputed`, or its `disputed` flag (the contract names the word, not the field). */
const isDisputed = (state: NetworkState) => state.state === "disputed" || state.disputed === true;

async function network(chainId: number): Promise<NetworkState> {
  const answer = await callApi<NetworkState[]>(service.url, "/networks", KEY);
  assert.equal(answer.status, 200);
  return answer.body.find((entry) => entry.chainId === chainId)!;
}

/** Waits until the chain holds every block from the genesis to within two of the head, its backfill done. */
async function backfilled(chainId: number): Promise<NetworkState> {
  return waitFor(
    `chain ${chainId} backfilled to its genesis and following its head`,
    async () => {
      const state = await network(chainId);
      const newest = state.newestBlock === null ? -1n : BigInt(state.newestBlock);
      return state.history.oldestBlock === "0" && !state.history.backfill.running && newest >= head() - 2n ? state : undefined;
    },
    { timeoutMs: LONG_MS, everyMs: 100 },
  );
}

/** The CSV's rows, checked to ascend without duplicates. */
async function csvRows(chainId: number): Promise<{ block: bigint; gwei: string }[]> {
  const answer = await fetch(`${service.url}/networks/${chainId}/baseFeeHistory.csv`, {
    headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` },
  });
  assert.equal(answer.status, 200);
  const rows = (await answer.text())
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [block = "", , gwei = ""] = line.split(",");
      return { block: BigInt(block), gwei };
    });
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i]!.block > rows[i - 1]!.block, `the CSV's blocks ascend (${rows[i - 1]!.block}, ${rows[i]!.block})`);
  return rows;
}

/** The rows whose fee is not `feeOf`'s, said as "n of m rows (block b: x, not y; ...)". */
function departures(rows: readonly { block: bigint; gwei: string }[], feeOf: (block: bigint) => bigint): { count: number; said: string } {
  const wrong = rows.filter((row) => row.gwei !== expectedGwei(feeOf(row.block)));
  const examples = wrong
    .slice(0, 3)
    .map((row) => `block ${row.block}: ${row.gwei}, not ${expectedGwei(feeOf(row.block))}`)
    .join("; ");
  return { count: wrong.length, said: `${wrong.length} of ${rows.length} rows${wrong.length > 0 ? ` (${examples})` : ""}` };
}

/** Every block the CSV holds, from the genesis on, is the honest chain's, with its fee. */
async function csvHoldsTheTruth(t: TestContext, chainId: number): Promise<void> {
  const rows = await csvRows(chainId);
  const wrong = departures(rows, honestFee);
  t.diagnostic(`chain ${chainId}: baseFeeHistory.csv departs from the honest chain in ${wrong.said}`);
  assert.ok(rows.length > Number(START_HEAD), `the CSV holds the backfilled chain (${rows.length} rows)`);
  assert.equal(rows[0]!.block, 0n);
  assert.equal(wrong.count, 0, `the CSV departs from the honest chain in ${wrong.said}`);
}

/** busyThreshold is the honest chain's p90 over the window it names; the dispute header as `disputed` says. */
async function feesAreTheTruth(t: TestContext, chainId: number, disputed: boolean): Promise<void> {
  const answer = await callApi<{ busyThreshold: string }>(service.url, `/networks/${chainId}/busyThreshold`, KEY);
  assert.equal(answer.status, 200);
  const from = BigInt(answer.headers.get("x-stats-from-block")!);
  const to = BigInt(answer.headers.get("x-stats-to-block")!);
  const window = Array.from({ length: Number(to - from + 1n) }, (_, i) => honestFee(from + BigInt(i)));
  const expected = expectedGwei(expectedPercentile(window, 90));
  const header = answer.headers.get("x-data-disputed");
  t.diagnostic(`chain ${chainId}: busyThreshold ${answer.body.busyThreshold} (honest ${expected}) over ${from}..${to}, X-Data-Disputed ${header}`);
  assert.ok(to <= head(), `the window ends at ${to}, at most the head ${head()}`);
  assert.equal(answer.body.busyThreshold, expected, "busyThreshold is the honest chain's p90");
  if (disputed) assert.equal(header, "true", "X-Data-Disputed: true while the endpoints disagree");
  else assert.notEqual(header, "true", "no X-Data-Disputed while nothing is disputed");
}

/** The chain's disputed series in /metrics, or undefined when it has none. */
async function disputedMetric(chainId: number): Promise<number | undefined> {
  const answer = await fetch(`${service.url}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` } });
  assert.equal(answer.status, 200);
  const text = await answer.text();
  const line = text.split("\n").find((candidate) => /^gasfees_\w*disput\w*\{/.test(candidate) && candidate.includes(`chain_id="${chainId}"`));
  return line === undefined ? undefined : Number(line.trim().split(/\s+/).at(-1));
}

/** Waits for the chain to say it is disputed (two endpoints, two stories), and checks the answers and /metrics say so. */
async function saysDisputed(t: TestContext, chainId: number): Promise<void> {
  const seen = await network(chainId);
  t.diagnostic(
    `chain ${chainId}: state ${seen.state}; endpoints ${seen.endpoints.map((endpoint) => `${endpoint.state}${endpoint.active ? " (active)" : ""}${endpoint.lastError ? ` "${endpoint.lastError}"` : ""}`).join(", ")}`,
  );
  await waitFor(`chain ${chainId} disputed in /networks (it is ${seen.state})`, async () => (isDisputed(await network(chainId)) ? true : undefined), {
    timeoutMs: NOTICE_MS,
    everyMs: 100,
  });
  t.diagnostic(`chain ${chainId} disputed: ${JSON.stringify((await network(chainId)).disputes ?? [])}`);
  const history = await callApi<string[]>(service.url, `/networks/${chainId}/baseFeeHistory`, KEY);
  assert.equal(history.headers.get("x-data-disputed"), "true", "baseFeeHistory says the data is disputed");
  assert.equal(await disputedMetric(chainId), 1, "/metrics says the chain is disputed");
}

/**
 * Runs each check, all of them even when one fails, then fails with every failure: a run says all that is wrong at
 * once (the values seen are in the diagnostics).
 */
async function allOf(checks: readonly (() => Promise<void> | void)[]): Promise<void> {
  const failures: string[] = [];
  for (const check of checks) {
    try {
      await check();
    } catch (error) {
      failures.push(error instanceof Error ? error.message.split("\n")[0]! : String(error));
    }
  }
  assert.deepEqual(failures, [], "every check passes");
}

test("one endpoint of two doubles every base fee, live and in the backfill: the chain is disputed, and holds and serves the first endpoint's honest fees only", async (t) => {
  await backfilled(DOUBLED_SECOND);
  await allOf([
    () => csvHoldsTheTruth(t, DOUBLED_SECOND),
    () => saysDisputed(t, DOUBLED_SECOND),
    () => feesAreTheTruth(t, DOUBLED_SECOND, true),
    async () => {
      const state = await network(DOUBLED_SECOND);
      assert.equal(state.currentBaseFee, expectedGwei(honestFee(BigInt(state.newestBlock!) + 1n)), "the current base fee is the honest chain's");
    },
  ]);
});

test("one endpoint of two serves a fork 2,000 blocks deep (other hashes, other fees): the chain is disputed, and none of the fork's blocks is kept", async (t) => {
  await backfilled(FORK_SECOND);
  await allOf([() => csvHoldsTheTruth(t, FORK_SECOND), () => saysDisputed(t, FORK_SECOND), () => feesAreTheTruth(t, FORK_SECOND, true)]);
});

test("two endpoints, two stories, the liar first: the dispute is said, never settled silently, and the history is one story, never a mix of pages", async (t) => {
  await backfilled(DOUBLED_FIRST);
  const rows = await csvRows(DOUBLED_FIRST);
  const fromHonest = departures(rows, honestFee);
  const fromLiar = departures(rows, doubledFee);
  t.diagnostic(`chain ${DOUBLED_FIRST}: the CSV departs from the honest chain in ${fromHonest.said}, from the liar's in ${fromLiar.said}`);
  await allOf([
    () => saysDisputed(t, DOUBLED_FIRST),
    async () => {
      const later = await csvRows(DOUBLED_FIRST);
      const departs = Math.min(departures(later, honestFee).count, departures(later, doubledFee).count);
      assert.equal(departs, 0, `the CSV mixes the two stories: ${departures(later, honestFee).said} are not the honest chain's`);
    },
    async () => {
      const busy = await callApi(service.url, `/networks/${DOUBLED_FIRST}/busyThreshold`, KEY);
      assert.equal(busy.headers.get("x-data-disputed"), "true", "X-Data-Disputed: true on busyThreshold");
    },
  ]);
});

test("one endpoint of three doubles every base fee, and it is the first: the majority sets it aside as suspect, saying how it differed; the chain is ok and holds the truth", async (t) => {
  await backfilled(ONE_OF_THREE);
  const liarUrl = chains.get(ONE_OF_THREE)!.servers[0]!.url;
  const seen = await network(ONE_OF_THREE);
  const liarSeen = seen.endpoints.find((endpoint) => endpoint.url === liarUrl)!;
  t.diagnostic(`chain ${ONE_OF_THREE}: state ${seen.state}; the liar ${liarSeen.state}${liarSeen.active ? " (active)" : ""} "${liarSeen.lastError ?? ""}"`);
  t.diagnostic(`chain ${ONE_OF_THREE}: the CSV departs from the honest chain in ${departures(await csvRows(ONE_OF_THREE), honestFee).said}`);
  const state = await waitFor(
    `the liar set aside as suspect for its base fees (it is ${liarSeen.state})`,
    async () => {
      const now = await network(ONE_OF_THREE);
      const liar = now.endpoints.find((endpoint) => endpoint.url === liarUrl)!;
      return liar.state === "suspect" && !liar.active && /base fee/i.test(liar.lastError ?? "") ? now : undefined;
    },
    { timeoutMs: NOTICE_MS, everyMs: 100 },
  );
  t.diagnostic(`the liar's status: "${state.endpoints.find((endpoint) => endpoint.url === liarUrl)!.lastError}"`);
  assert.equal(state.state, "ok", "a majority settles it: the chain is ok");
  assert.ok(!isDisputed(state), "a majority settles it: the chain is not disputed");
  await backfilled(ONE_OF_THREE);
  await allOf([() => csvHoldsTheTruth(t, ONE_OF_THREE), () => feesAreTheTruth(t, ONE_OF_THREE, false)]);
});

test("a liar right on eleven blocks in twelve, first of three: a sample finds it out, it is set aside, and the blocks it lied about are replaced by the honest ones", async (t) => {
  await backfilled(MOSTLY_RIGHT);
  const liarUrl = chains.get(MOSTLY_RIGHT)!.servers[0]!.url;
  const before = departures(await csvRows(MOSTLY_RIGHT), honestFee);
  t.diagnostic(`chain ${MOSTLY_RIGHT}: the CSV departs from the honest chain in ${before.said}`);
  await waitFor(
    "the mostly-right liar set aside as suspect",
    async () => {
      const liar = (await network(MOSTLY_RIGHT)).endpoints.find((endpoint) => endpoint.url === liarUrl)!;
      return liar.state === "suspect" && /base fee/i.test(liar.lastError ?? "") ? true : undefined;
    },
    { timeoutMs: NOTICE_MS, everyMs: 100 },
  );
  const settled = await network(MOSTLY_RIGHT);
  assert.ok(settled.state === "ok" && !isDisputed(settled), "a majority settles it: the chain is ok, not disputed");
  // Its lies are refetched from the others: wait for the CSV to hold none of them (the store is rewritten, not patched later).
  await waitFor("the liar's blocks replaced", async () => (departures(await csvRows(MOSTLY_RIGHT), honestFee).count === 0 ? true : undefined), {
    timeoutMs: NOTICE_MS,
    everyMs: 250,
  });
  await feesAreTheTruth(t, MOSTLY_RIGHT, false);
});

test("40 live blocks later the liars still lie: the disputes still stand, the liars found out stay aside, and every new block held is the honest chain's", async (t) => {
  const through = head() + 40n;
  await waitFor(
    `block ${through} on every chain`,
    async () => {
      for (const chainId of chains.keys()) {
        const newest = (await network(chainId)).newestBlock;
        if (newest === null || BigInt(newest) < through) return undefined;
      }
      return true;
    },
    { timeoutMs: LONG_MS, everyMs: 200 },
  );
  const checks: (() => Promise<void>)[] = [];
  for (const chainId of [DOUBLED_SECOND, FORK_SECOND, DOUBLED_FIRST]) {
    checks.push(async () => assert.ok(isDisputed(await network(chainId)), `chain ${chainId} is still disputed`));
  }
  for (const chainId of [ONE_OF_THREE, MOSTLY_RIGHT]) {
    checks.push(async () => {
      const state = await network(chainId);
      const liar = state.endpoints.find((endpoint) => endpoint.url === chains.get(chainId)!.servers[0]!.url)!;
      assert.ok(!liar.active && !isDisputed(state), `chain ${chainId}: the liar is not used (${liar.state}), nothing disputed`);
    });
  }
  for (const chainId of [DOUBLED_SECOND, FORK_SECOND, ONE_OF_THREE, MOSTLY_RIGHT]) checks.push(() => csvHoldsTheTruth(t, chainId));
  checks.push(async () => {
    const rows = await csvRows(DOUBLED_FIRST);
    const departs = Math.min(departures(rows, honestFee).count, departures(rows, doubledFee).count);
    assert.equal(departs, 0, `chain ${DOUBLED_FIRST}'s CSV mixes the two stories: ${departures(rows, honestFee).said} are not the honest chain's`);
  });
  await allOf(checks);
});

test("a restart on the same history file with the honest endpoints alone holds and serves the honest chain only where a liar was found out, nothing disputed", async (t) => {
  await service.stop();
  service = await startLocalService(
    [...chains].map(([chainId, { honest }]) => plan(chainId, honest)),
    [{ key: KEY }],
    { historyFile },
  );
  // Where two endpoints told two stories and nobody settled it (DOUBLED_FIRST), the store may hold either: it is said,
  // not judged. Everywhere else the history held was the honest chain's, or a liar was found out and its blocks replaced.
  const judged = [...chains.keys()].filter((chainId) => chainId !== DOUBLED_FIRST);
  const failures: string[] = [];
  // The store as the restart found it, before the feeds' first answers could replace anything.
  for (const chainId of chains.keys()) {
    const wrong = departures(await csvRows(chainId), honestFee);
    t.diagnostic(`after the restart, chain ${chainId}'s CSV departs from the honest chain in ${wrong.said}`);
    if (wrong.count > 0 && judged.includes(chainId)) failures.push(`chain ${chainId} at the restart: ${wrong.said}`);
  }
  for (const chainId of chains.keys()) {
    await backfilled(chainId);
    const wrong = departures(await csvRows(chainId), honestFee);
    t.diagnostic(`once caught up, chain ${chainId}'s CSV departs from the honest chain in ${wrong.said}`);
    if (wrong.count > 0 && judged.includes(chainId)) failures.push(`chain ${chainId} once caught up: ${wrong.said}`);
  }
  assert.deepEqual(failures, [], "the lies held in the store outlive their liars");
  for (const chainId of judged) {
    const state = await network(chainId);
    assert.ok(state.state === "ok" && !isDisputed(state), `chain ${chainId} is ok with its honest endpoints, nothing disputed`);
    await feesAreTheTruth(t, chainId, false);
  }
});
