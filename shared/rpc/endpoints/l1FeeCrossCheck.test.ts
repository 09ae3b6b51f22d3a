// Through the project's stand-in JSON-RPC servers (test/support/syntheticChainServer.ts) answering as the OP stack's
// GasPriceOracle, one of which lies on purpose, read with the real contract client.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { decodeFunctionData, encodeFunctionResult } from "viem";
import { startSyntheticChainServer } from "../../../test/support/syntheticChainServer.ts";
import { createContractClient } from "../contracts/contractClient.ts";
import { GAS_PRICE_ORACLE_ABI } from "../contracts/l1FeeReads.ts";
import { crossCheckL1Fee } from "./l1FeeCrossCheck.ts";

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A client over oracles answering getL1Fee with `fees`, one per endpoint. */
async function clientOver(...fees: bigint[]) {
  const servers = await Promise.all(
    fees.map((fee) =>
      startSyntheticChainServer({
        head: 100n,
        ethCall: (data) => {
          decodeFunctionData({ abi: GAS_PRICE_ORACLE_ABI, data: data as `0x${string}` });
          return { result: encodeFunctionResult({ abi: GAS_PRICE_ORACLE_ABI, functionName: "getL1Fee", result: fee }) };
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

test("fees a block or two apart (within 1.5 times) are one story: agreed", async () => {
  const { client } = await clientOver(1_000_000n, 1_200_000n, 1_100_000n);
  assert.deepEqual(await crossCheckL1Fee(client, "op-stack", 200, 1_000_000n, undefined), { kind: "agreed" });
  assert.equal(client.trustedEndpoints().length, 3);
});

test("an L1 fee 1,000 times the others' is outvoted: its endpoint is set aside for every reader", async () => {
  const { client, urls } = await clientOver(1_000_000_000n, 1_000_000n, 1_100_000n);
  assert.deepEqual(await crossCheckL1Fee(client, "op-stack", 200, 1_000_000_000n, urls[0]), { kind: "outvoted" });
  assert.deepEqual(client.trustedEndpoints(), urls.slice(1));
});

test("two endpoints, two L1 fees 1,000 times apart: a dispute, nobody set aside", async () => {
  const { client } = await clientOver(1_000_000_000n, 1_000_000n);
  const check = await crossCheckL1Fee(client, "op-stack", 200, 1_000_000n, undefined);
  assert.equal(check.kind, "disputed");
  assert.match(
    check.kind === "disputed" ? check.problem : "",
    /^the chain's endpoints disagree on the L1 fee and no majority settles it: the L1 fee of a 200-byte transaction: about/,
  );
  assert.equal(client.trustedEndpoints().length, 2);
});
