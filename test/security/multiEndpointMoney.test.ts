// Endpoints of one chain that tell different stories about money, against the real service (startLocalService: the
// real HTTP server, feeds, cost readers and history store on a file), seen only through its HTTP API and the store
// across a restart (CONTRACT.md, "Following chains" and "Costs in money": every price round and L1 fee used is
// compared across endpoints, and money is read only through endpoints the layer trusts). The endpoints are stand-ins
// (test/support/syntheticChainServer.ts, its eth_call answered by test/support/contractStandIns.ts: a Chainlink
// aggregator with 61 rounds half an hour apart, and the OP stack's GasPriceOracle): no real node can be made to lie.
// The lies, each from the first endpoint, the one read first: a price 10x (of two, and of three), decimals() of 36,
// an L1 fee 1,000x its oracle's own inputs, and an L1 fee 1,000x with inputs that agree with it. Asserted during
// each lie: /costs, /networks (the chain's state and price, the liar's status), X-Data-Disputed and /priceHistory;
// after a restart on the same history file with the honest endpoints alone: /costs and the price points kept.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test, type TestContext } from "node:test";
import { formatUnits } from "viem";
import type { RunningService } from "../../shared/app/startService.ts";
import { opStackStandInTx } from "../../shared/core/costs/l1FeeData.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import type { Costs, PriceHistory } from "../../shared/wire/costs.ts";
import { callApi } from "../support/apiClient.ts";
import {
  ecotoneL1Fee,
  ethCallOf,
  opGasPriceOracleStandIn,
  type OracleInputs,
  priceFeedStandIn,
  type Round,
  roundsEnding,
} from "../support/contractStandIns.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { startSyntheticChainServer, type SyntheticChainServer } from "../support/syntheticChainServer.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const LONG_MS = 60_000;
/** How long the service is given to notice a lie that a comparison of endpoints shows at once. */
const NOTICE_MS = 20_000;
const DECIMALS = 8;
const FEED: `0x${string}` = "0x000000000000000000000000000000000000feed";
const START_HEAD = 60n;

/**
 * Chains: [10x, honest]; [10x, honest, honest]; [decimals 36, honest]; [L1 fee 1,000x, honest]; [L1 fee and inputs
 * 1,000x, honest]; [honest until it turns to 10x, honest]; [a newest round dated 290 s ahead, honest]; [honest until it
 * turns to 10x, honest, honest].
 */
const PRICE_TWO = 44_001;
const PRICE_THREE = 44_002;
const DECIMALS_36 = 44_003;
const L1_FEE = 44_004;
const L1_FEE_CONSISTENT = 44_005;
const PRICE_TURNS = 44_006;
const PRICE_AHEAD = 44_007;
const PRICE_TURNS_OF_THREE = 44_008;
const PRICE_CHAINS = [PRICE_TWO, PRICE_THREE, DECIMALS_36, PRICE_TURNS, PRICE_AHEAD, PRICE_TURNS_OF_THREE];
/** How far ahead of the clock the liar of PRICE_AHEAD dates its newest round (the issue's reproduction). */
const AHEAD_S = 290;
const L1_CHAINS = [L1_FEE, L1_FEE_CONSISTENT];

const startS = Math.floor(Date.now() / 1000);
const timestampOf = (block: bigint) => startS + Number(block - START_HEAD);
/** 30 hours of rounds, the newest 20 minutes old (within the hour's heartbeat). */
const rounds: readonly Round[] = roundsEnding(startS - 1200, 61);
const honestValue = (round: Round) => formatUnits(round.answer, DECIMALS);
const latestValue = honestValue(rounds.at(-1)!);
/** An OP-stack chain's oracle inputs on a quiet day (costsHardhat.test.ts's). */
const ORACLE: OracleInputs = { l1BaseFee: 31_000_000_000n, blobBaseFee: 1n, baseFeeScalar: 1368, blobBaseFeeScalar: 810_949 };
const honestL1Fee = (txBytes: number) => ecotoneL1Fee(opStackStandInTx(txBytes), ORACLE);

const feed = (options: { answerScale?: bigint | (() => bigint); decimals?: number } = {}) =>
  priceFeedStandIn({ address: FEED, description: "ETH / USD", decimals: options.decimals ?? DECIMALS, rounds: () => rounds, ...options });

const dir = mkdtempSync(join(tmpdir(), "gasfees-multi-endpoint-money-"));
const historyFile = join(dir, "history.sqlite");
const chains = new Map<number, { readonly servers: SyntheticChainServer[]; readonly honest: SyntheticChainServer[] }>();
let service: RunningService;
/** What PRICE_TURNS' first endpoint multiplies its answers by: 1 until the test turns it. */
let turncoatScale = 1n;
/** The same for PRICE_TURNS_OF_THREE's first endpoint. */
let turncoatOfThreeScale = 1n;
let miner: NodeJS.Timeout;

const plan = (chainId: number, servers: readonly SyntheticChainServer[]): ChainPlan => ({
  chainId,
  name: `Money ${chainId}`,
  rpcUrls: servers.map((server) => server.url),
  blockTimeMs: 1000,
  historyHorizon: "24h",
  pollIntervalMs: 300,
  requestTimeoutMs: 3000,
  ...(L1_CHAINS.includes(chainId)
    ? { l1FeeKind: "op-stack", priceFeed: false }
    : { priceFeed: { address: FEED, token: "ETH", description: "ETH / USD", heartbeatSeconds: 3600 } }),
});

/** Starts the service over every endpoint, or the honest ones alone, and waits until every chain has data. */
async function startOver(useHonestOnly: boolean): Promise<RunningService> {
  const started = await startLocalService(
    [...chains].map(([chainId, { servers, honest }]) => plan(chainId, useHonestOnly ? honest : servers)),
    [{ key: KEY }],
    { historyFile, costReads: { intervalMs: 500 } },
  );
  await waitFor(
    "every chain followed",
    async () => {
      const answer = await callApi<{ newestBlock: string | null }[]>(started.url, "/networks", KEY);
      return answer.status === 200 && answer.body.every((entry) => entry.newestBlock !== null) ? true : undefined;
    },
    { timeoutMs: LONG_MS, everyMs: 50 },
  );
  return started;
}

before(async () => {
  const serve = (chainId: number, ethCall: ReturnType<typeof ethCallOf>) =>
    startSyntheticChainServer({ chainId, head: START_HEAD, timestampOf, blobFees: false, ethCall });
  const honestFeed = ethCallOf(feed());
  const honestOracle = ethCallOf(opGasPriceOracleStandIn(ORACLE));
  const add = async (chainId: number, liar: ReturnType<typeof ethCallOf>, honest: ReturnType<typeof ethCallOf>, honestCount = 1) => {
    const liarServer = await serve(chainId, liar);
    const truthful = await Promise.all(Array.from({ length: honestCount }, () => serve(chainId, honest)));
    chains.set(chainId, { servers: [liarServer, ...truthful], honest: truthful });
  };
  await add(PRICE_TWO, ethCallOf(feed({ answerScale: 10n })), honestFeed);
  await add(PRICE_THREE, ethCallOf(feed({ answerScale: 10n })), honestFeed, 2);
  await add(DECIMALS_36, ethCallOf(feed({ decimals: 36 })), honestFeed);
  await add(L1_FEE, ethCallOf(opGasPriceOracleStandIn(ORACLE, 1000n)), honestOracle);
  await add(L1_FEE_CONSISTENT, ethCallOf(opGasPriceOracleStandIn({ ...ORACLE, l1BaseFee: ORACLE.l1BaseFee * 1000n, blobBaseFee: 1000n })), honestOracle);
  await add(PRICE_TURNS, ethCallOf(feed({ answerScale: () => turncoatScale })), honestFeed);
  await add(PRICE_TURNS_OF_THREE, ethCallOf(feed({ answerScale: () => turncoatOfThreeScale })), honestFeed, 2);
  // A round after the newest, a little dearer, dated ahead of the clock: what a feed cannot have written yet.
  const ahead: Round = { roundId: rounds.at(-1)!.roundId + 1n, answer: (rounds.at(-1)!.answer * 101n) / 100n, updatedAt: startS + AHEAD_S };
  const roundsAhead = [...rounds, ahead];
  await add(PRICE_AHEAD, ethCallOf(priceFeedStandIn({ address: FEED, description: "ETH / USD", decimals: DECIMALS, rounds: () => roundsAhead })), honestFeed);
  miner = setInterval(() => {
    for (const { servers } of chains.values()) for (const server of servers) server.head += 1n;
  }, 1000);
  service = await startOver(false);
});

after(async () => {
  clearInterval(miner);
  await service?.stop();
  await Promise.all([...chains.values()].flatMap(({ servers }) => servers.map((server) => server.close())));
  rmSync(dir, { recursive: true, force: true });
});

interface NetworkState {
  readonly chainId: number;
  readonly state: string;
  /** The contract's "status (`disputed`)": said as the state, or as a flag beside it. */
  readonly disputed?: boolean;
  readonly price: { readonly value: string } | null;
  readonly priceProblem: string | null;
  readonly endpoints: readonly { readonly url: string; readonly state: string; readonly active: boolean; readonly lastError?: string }[];
}

/** Whether /networks says the chain is disputed: its state `disputed`, or its `disputed` flag (the contract names the word, not the field). */
const isDisputed = (state: NetworkState) => state.state === "disputed" || state.disputed === true;

async function network(chainId: number): Promise<NetworkState> {
  const answer = await callApi<NetworkState[]>(service.url, "/networks", KEY);
  assert.equal(answer.status, 200);
  return answer.body.find((entry) => entry.chainId === chainId)!;
}

async function costs(chainId: number): Promise<{ body: Costs; disputed: string | null }> {
  const answer = await callApi<Costs>(service.url, `/networks/${chainId}/costs`, KEY);
  assert.equal(answer.status, 200);
  return { body: answer.body, disputed: answer.headers.get("x-data-disputed") };
}

async function priceHistory(chainId: number): Promise<PriceHistory> {
  const answer = await callApi<PriceHistory>(service.url, `/networks/${chainId}/priceHistory`, KEY);
  assert.equal(answer.status, 200);
  return answer.body;
}

/** The eth_calls every endpoint of the chain has answered (the contract reads done so far). */
const ethCalls = (chainId: number) => chains.get(chainId)!.servers.reduce((sum, server) => sum + server.calls("eth_call"), 0);

/** Waits until the chain's endpoints have answered `more` eth_calls from now: reads that would have kept what they read. */
async function readsGoneBy(chainId: number, more: number): Promise<void> {
  const from = ethCalls(chainId);
  await waitFor(`${more} more contract reads on chain ${chainId}`, () => (ethCalls(chainId) >= from + more ? true : undefined), {
    timeoutMs: LONG_MS,
    everyMs: 50,
  });
}

/** Waits until the chain's price has been read once (a price, or a problem other than "not read yet"). */
async function priceRead(chainId: number): Promise<Costs> {
  return waitFor(
    `chain ${chainId}'s price read`,
    async () => {
      const { body } = await costs(chainId);
      return body.price !== null || (body.priceProblem !== null && !/not been read yet|no answering RPC endpoint/.test(body.priceProblem)) ? body : undefined;
    },
    { timeoutMs: LONG_MS, everyMs: 50 },
  );
}

/** Every check runs even when one fails; the test then fails with all their failures. */
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

const endpointsSaid = (state: NetworkState) =>
  state.endpoints.map((endpoint) => `${endpoint.state}${endpoint.active ? " (active)" : ""}${endpoint.lastError ? ` "${endpoint.lastError}"` : ""}`).join(", ");

/** /costs and /networks show the honest price, or none with a problem: never another. */
async function priceNeverALie(t: TestContext, chainId: number): Promise<void> {
  const { body } = await costs(chainId);
  const state = await network(chainId);
  t.diagnostic(
    `chain ${chainId}: /costs price ${body.price?.value ?? null} (honest ${latestValue}), priceProblem ${JSON.stringify(body.priceProblem)}, transfer medium fiat ${body.actions.find((action) => action.id === "transfer")?.medium.fiat ?? null}; /networks ${state.state}, price ${state.price?.value ?? null}; endpoints ${endpointsSaid(state)}`,
  );
  for (const [where, price, problem] of [
    ["/costs", body.price, body.priceProblem],
    ["/networks", state.price, state.priceProblem],
  ] as const) {
    if (price === null) assert.ok(problem !== null && problem.length > 0, `${where}: no price, and the problem says why`);
    else assert.equal(price.value, latestValue, `${where}: the price is the honest one`);
  }
}

/** Every price point kept is the honest round of its time; `atLeast` points are kept. */
async function pointsAreTheTruth(t: TestContext, chainId: number, atLeast: number): Promise<void> {
  const points = await priceHistory(chainId);
  const byTime = new Map(rounds.map((round) => [round.updatedAt, honestValue(round)]));
  const wrong = points.filter((point) => byTime.get(point.time) !== point.value);
  t.diagnostic(
    `chain ${chainId}: /priceHistory holds ${points.length} points, ${wrong.length} not the honest rounds'${wrong.length > 0 ? ` (e.g. ${wrong[0]!.time}: ${wrong[0]!.value})` : ""}`,
  );
  assert.equal(wrong.length, 0, `${wrong.length} of ${points.length} price points are not the honest rounds'`);
  assert.ok(points.length >= atLeast, `${points.length} price points kept, at least ${atLeast}`);
}

/** Waits for the chain to be disputed in /networks; /costs then says so in X-Data-Disputed. */
async function saysDisputed(chainId: number): Promise<void> {
  await waitFor(`chain ${chainId} disputed in /networks`, async () => (isDisputed(await network(chainId)) ? true : undefined), {
    timeoutMs: NOTICE_MS,
    everyMs: 100,
  });
  assert.equal((await costs(chainId)).disputed, "true", "/costs says its data is disputed");
}

/** Waits for the first endpoint to be set aside as suspect, its status naming what differed. */
async function liarSetAside(chainId: number, differed: RegExp): Promise<void> {
  const liarUrl = chains.get(chainId)!.servers[0]!.url;
  await waitFor(
    `chain ${chainId}'s first endpoint set aside as suspect (${differed})`,
    async () => {
      const liar = (await network(chainId)).endpoints.find((endpoint) => endpoint.url === liarUrl)!;
      return liar.state === "suspect" && !liar.active && differed.test(liar.lastError ?? "") ? true : undefined;
    },
    { timeoutMs: NOTICE_MS, everyMs: 100 },
  );
}

/**
 * Waits until one endpoint's refused answer (an impossible price, round or L1 fee) gives way: the honest value shown,
 * none and the chain said disputed, or none with the refusal said (`priceProblem` / `l1FeeProblem`). Never the lie.
 * (Reading the other trusted endpoint at once when one answer is refused on its face is the better answer, and not
 * built yet: the service then shows no value and says why until the liar's answer changes.)
 */
async function honestOrDisputed(chainId: number, what: "price" | "L1 fees"): Promise<void> {
  await waitFor(
    `chain ${chainId}: the honest ${what} shown, or none with the dispute or the refusal said`,
    async () => {
      const { body } = await costs(chainId);
      const honest =
        what === "price" ? body.price?.value === latestValue : body.actions.every((action) => action.l1FeeWei === String(honestL1Fee(action.txBytes)));
      const none = what === "price" ? body.price === null : body.actions.every((action) => action.l1FeeWei === null);
      const said = (what === "price" ? body.priceProblem : body.l1FeeProblem) !== null;
      return honest || (none && (said || isDisputed(await network(chainId)))) ? true : undefined;
    },
    { timeoutMs: NOTICE_MS },
  );
}

/** The rounds of the 24-hour horizon, and the one in force at its start. */
const HORIZON_POINTS = rounds.filter((round) => round.updatedAt > rounds.at(-1)!.updatedAt - 24 * 3600).length;

test("one endpoint of two answers every price 10x, and it is read first: the chain is disputed, no price is shown or kept that is the lie", async (t) => {
  await priceRead(PRICE_TWO);
  await allOf([
    () => priceNeverALie(t, PRICE_TWO),
    () => saysDisputed(PRICE_TWO),
    async () => {
      // Reads that would have kept its rounds (the newest and those read back) have gone by.
      await readsGoneBy(PRICE_TWO, 20);
      await priceNeverALie(t, PRICE_TWO);
      await pointsAreTheTruth(t, PRICE_TWO, 0);
    },
  ]);
});

test("one endpoint of three answers every price 10x, and it is read first: the majority sets it aside, saying the price differed; the honest price is shown and kept", async (t) => {
  await priceRead(PRICE_THREE);
  await allOf([
    () => priceNeverALie(t, PRICE_THREE),
    () => liarSetAside(PRICE_THREE, /price|round|answer/i),
    async () => {
      const state = await network(PRICE_THREE);
      assert.ok(state.state === "ok" && !isDisputed(state), "a majority settles it: the chain is ok, not disputed");
      await waitFor("the honest price shown", async () => ((await costs(PRICE_THREE)).body.price?.value === latestValue ? true : undefined), {
        timeoutMs: NOTICE_MS,
      });
      await readsGoneBy(PRICE_THREE, 20);
      await pointsAreTheTruth(t, PRICE_THREE, 1);
    },
  ]);
});

test("one endpoint of two says its feed has 36 decimals (ETH at 3e-25 USD): that price is never used or kept; the honest endpoint's is, or the dispute is said", async (t) => {
  await priceRead(DECIMALS_36);
  await allOf([
    () => priceNeverALie(t, DECIMALS_36),
    () => honestOrDisputed(DECIMALS_36, "price"),
    async () => {
      await readsGoneBy(DECIMALS_36, 20);
      await pointsAreTheTruth(t, DECIMALS_36, 0);
    },
  ]);
});

test("an endpoint honest at first answers 10x from one read to the next: the move is held until another endpoint confirms it, which it never does", async (t) => {
  await waitFor("the honest price shown", async () => ((await costs(PRICE_TURNS)).body.price?.value === latestValue ? true : undefined), {
    timeoutMs: LONG_MS,
  });
  await readsGoneBy(PRICE_TURNS, 20);
  turncoatScale = 10n;
  await readsGoneBy(PRICE_TURNS, 20);
  await allOf([() => priceNeverALie(t, PRICE_TURNS), () => pointsAreTheTruth(t, PRICE_TURNS, 1)]);
  const { body } = await costs(PRICE_TURNS);
  if (body.price !== null) assert.ok(body.priceProblem !== null, "a price held says why it is held");
});

test("an endpoint of three honest at first answers 10x for the round already compared: the majority sets it aside, saying the price differed; the honest price stays", async (t) => {
  // The first reads compare round 61 across the endpoints while all three tell it alike; the liar then tells that same
  // round 10x, which must be compared again as a new round would be, or the liar is only held as a suspect move and
  // stays in use (what happens to PRICE_THREE's liar when, under load, an honest endpoint is read first).
  await waitFor("the honest price shown", async () => ((await costs(PRICE_TURNS_OF_THREE)).body.price?.value === latestValue ? true : undefined), {
    timeoutMs: LONG_MS,
  });
  turncoatOfThreeScale = 10n;
  await allOf([
    () => liarSetAside(PRICE_TURNS_OF_THREE, /price|round|answer/i),
    () => priceNeverALie(t, PRICE_TURNS_OF_THREE),
    () => pointsAreTheTruth(t, PRICE_TURNS_OF_THREE, 0),
  ]);
});

test("one endpoint of two dates its newest round 290 s ahead of the clock: that round is neither shown nor kept; the honest endpoint's is, or the dispute is said", async (t) => {
  await priceRead(PRICE_AHEAD);
  await readsGoneBy(PRICE_AHEAD, 20);
  const { body } = await costs(PRICE_AHEAD);
  const points = await priceHistory(PRICE_AHEAD);
  const nowS = Math.floor(Date.now() / 1000);
  const future = points.filter((point) => point.time > nowS + 30);
  t.diagnostic(
    `chain ${PRICE_AHEAD}: /costs price ${body.price?.value ?? null} dated ${body.price === null ? null : body.price.updatedAt - nowS} s from now, priceProblem ${JSON.stringify(body.priceProblem)}; /priceHistory holds ${points.length} points, ${future.length} dated ahead`,
  );
  await allOf([
    () => assert.ok(body.price === null || body.price.updatedAt <= nowS + 30, "the price shown is not dated ahead of the clock"),
    () => assert.equal(future.length, 0, "no price point is dated ahead of the clock"),
    () => pointsAreTheTruth(t, PRICE_AHEAD, 0),
    // The other endpoint's newest round is the honest one: refused on one endpoint, the price is read on the other.
    () => honestOrDisputed(PRICE_AHEAD, "price"),
  ]);
});

/** Waits until the chain's L1 fees were read (a fee or a problem other than "not read yet"); checks they are honest or null. */
async function l1FeesNeverALie(t: TestContext, chainId: number): Promise<void> {
  const body = await waitFor(
    `chain ${chainId}'s L1 fees read`,
    async () => {
      const { body } = await costs(chainId);
      return body.actions.some((action) => action.l1FeeWei !== null) ||
        (body.l1FeeProblem !== null && !/not been read yet|no answering/.test(body.l1FeeProblem))
        ? body
        : undefined;
    },
    { timeoutMs: LONG_MS, everyMs: 50 },
  );
  const transfer = body.actions.find((action) => action.id === "transfer")!;
  t.diagnostic(
    `chain ${chainId}: transfer l1FeeWei ${transfer.l1FeeWei} (honest ${honestL1Fee(transfer.txBytes)}), l1FeeProblem ${JSON.stringify(body.l1FeeProblem)}; /networks ${(await network(chainId)).state}`,
  );
  for (const action of body.actions) {
    if (action.l1FeeWei === null) assert.ok(body.l1FeeProblem !== null && body.l1FeeProblem.length > 0, "no L1 fee, and the problem says why");
    else assert.equal(action.l1FeeWei, String(honestL1Fee(action.txBytes)), `${action.id}'s L1 fee is the honest one`);
  }
}

test("one endpoint of two answers an L1 fee 1,000x what its own oracle inputs explain: it is never used; the honest endpoint's fee is, or the dispute is said", async (t) => {
  await allOf([() => l1FeesNeverALie(t, L1_FEE), () => honestOrDisputed(L1_FEE, "L1 fees")]);
});

test("one endpoint of two answers an L1 fee 1,000x with oracle inputs that agree with it: the fees are compared, the chain is disputed, the lie is never shown", async (t) => {
  await allOf([() => l1FeesNeverALie(t, L1_FEE_CONSISTENT), () => saysDisputed(L1_FEE_CONSISTENT), () => l1FeesNeverALie(t, L1_FEE_CONSISTENT)]);
});

test("a restart on the same history file with the honest endpoints alone shows and keeps the honest prices and fees only", async (t) => {
  await service.stop();
  service = await startOver(true);
  const failures: string[] = [];
  for (const chainId of PRICE_CHAINS) {
    // The points as the restart found them in the store (said, not judged: a point from an endpoint nobody found out
    // is replaced once read again), and once the honest endpoint's reads and read-back went by.
    await pointsAreTheTruth(t, chainId, 0).catch(() => undefined);
    await waitFor(`chain ${chainId}'s honest price`, async () => ((await costs(chainId)).body.price?.value === latestValue ? true : undefined), {
      timeoutMs: LONG_MS,
    });
    await readsGoneBy(chainId, 20);
    try {
      await pointsAreTheTruth(t, chainId, HORIZON_POINTS);
    } catch (error) {
      failures.push(`chain ${chainId} once read again: ${(error as Error).message.split("\n")[0]}`);
    }
    assert.notEqual((await costs(chainId)).disputed, "true");
  }
  for (const chainId of L1_CHAINS) {
    await waitFor(
      `chain ${chainId}'s honest L1 fees`,
      async () => {
        const { body } = await costs(chainId);
        return body.actions.every((action) => action.l1FeeWei === String(honestL1Fee(action.txBytes))) ? true : undefined;
      },
      { timeoutMs: LONG_MS },
    );
  }
  assert.deepEqual(failures, [], "the lies kept in the store outlive their liars");
});
