// Through the project's stand-in JSON-RPC servers (test/support/syntheticChainServer.ts) answering as Chainlink
// aggregators, one of which lies on purpose, read with the real contract client.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { decodeFunctionData, encodeFunctionResult } from "viem";
import { startSyntheticChainServer } from "../../../test/support/syntheticChainServer.ts";
import { createContractClient } from "../contracts/contractClient.ts";
import { AGGREGATOR_V3_ABI } from "../contracts/priceFeedReads.ts";
import { crossCheckRound } from "./roundCrossCheck.ts";

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const FEED = "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419";
const round = (answer: bigint) => ({ roundId: 7n, answer, startedAt: 1_700_000_000n, updatedAt: 1_700_000_000n });

/** A client over aggregators quoting `prices` for round 7, one per endpoint. */
async function clientOver(...prices: bigint[]) {
  const servers = await Promise.all(
    prices.map((price) =>
      startSyntheticChainServer({
        head: 100n,
        ethCall: (data) => {
          const call = decodeFunctionData({ abi: AGGREGATOR_V3_ABI, data: data as `0x${string}` });
          if (call.functionName !== "getRoundData" || call.args[0] !== 7n) return { error: { code: 3, message: "execution reverted" } };
          const { roundId, answer, startedAt, updatedAt } = round(price);
          return {
            result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "getRoundData", result: [roundId, answer, startedAt, updatedAt, roundId] }),
          };
        },
      }),
    ),
  );
  const client = createContractClient(
    1,
    servers.map((server) => server.url),
    5_000,
  );
  cleanups.push(
    () => Promise.all(servers.map((server) => server.close())).then(() => undefined),
    () => client.close(),
  );
  return { client, urls: servers.map((server) => server.url) };
}

test("a round every endpoint gives alike is agreed; one endpoint alone is not asked", async () => {
  const { client } = await clientOver(300n, 300n);
  assert.deepEqual(await crossCheckRound(client, FEED, round(300n), undefined), { kind: "agreed" });
  const alone = await clientOver(300n);
  assert.deepEqual(await crossCheckRound(alone.client, FEED, round(300n), undefined), { kind: "agreed" });
  assert.equal(alone.client.callCount, 0);
});

test("a round read from a liar is outvoted: the liar is set aside for every reader, with how it differed", async () => {
  const { client, urls } = await clientOver(3_000n, 300n, 300n);
  assert.deepEqual(await crossCheckRound(client, FEED, round(3_000n), urls[0]), { kind: "outvoted" });
  assert.deepEqual(client.trustedEndpoints(), urls.slice(1));
});

test("two endpoints, two prices for one round: a dispute, its problem a whole sentence naming both", async () => {
  const { client } = await clientOver(3_000n, 300n);
  const check = await crossCheckRound(client, FEED, round(3_000n), undefined);
  assert.equal(check.kind, "disputed");
  assert.match(
    check.kind === "disputed" ? check.problem : "",
    /^the chain's endpoints disagree on the price and no majority settles it: round 7 of the price feed 0x[0-9a-fA-F]{40}: 3000 updated at 1700000000 at http:\/\/127\.0\.0\.1:\d+, 300 updated at 1700000000 at http:\/\/127\.0\.0\.1:\d+$/,
  );
  assert.equal(client.trustedEndpoints().length, 2, "nobody is set aside");
});
