// eth_config read from a local JSON-RPC server of our own (test/support/syntheticChainServer.ts): Hardhat's EDR does
// not answer eth_config, so the answers an endpoint may give, hostile ones too, are served from there.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startSyntheticChainServer } from "../../../test/support/syntheticChainServer.ts";
import { readBlobSchedule } from "./blobScheduleRead.ts";
import { createContractClient } from "./contractClient.ts";

const BPO2 = { target: 14, max: 21, baseFeeUpdateFraction: 11_684_671 };

async function askWith(ethConfig: unknown) {
  const server = await startSyntheticChainServer({ chainId: 1, head: 10n, ...(ethConfig === undefined ? {} : { ethConfig }) });
  const client = createContractClient(1, [server.url], 2_000);
  try {
    return await readBlobSchedule(client);
  } finally {
    client.close();
    await server.close();
  }
}

test("eth_config's current blob schedule is read as the endpoint states it", async () => {
  const answer = await askWith({ current: { activationTime: 0, blobSchedule: BPO2, chainId: "0x1" }, next: null, last: null });
  assert.deepEqual(answer, { kind: "schedule", schedule: { target: 14, max: 21, baseFeeUpdateFraction: 11_684_671n } });
  assert.deepEqual(await askWith({ current: { blobSchedule: null } }), { kind: "none" }, "a fork without blobs");
});

test("an endpoint without eth_config, or a hostile answer, gives no schedule and says why", async () => {
  const unavailable = async (ethConfig: unknown, reason: RegExp) => {
    const answer = await askWith(ethConfig);
    assert.equal(answer.kind, "unavailable", JSON.stringify(ethConfig));
    assert.match(answer.kind === "unavailable" ? answer.reason : "", reason);
  };
  await unavailable(undefined, /eth_config does not exist/);
  await unavailable({ current: { blobSchedule: { ...BPO2, target: 22 } } }, /max is below target/);
  await unavailable({ current: { blobSchedule: { ...BPO2, target: "14" } } }, /not one/);
  await unavailable({ current: { blobSchedule: { ...BPO2, max: 10 ** 9 } } }, /not one/);
  await unavailable({ current: { blobSchedule: { ...BPO2, baseFeeUpdateFraction: 2 ** 60 } } }, /not one/);
  await unavailable("0x1", /not one/);
});
