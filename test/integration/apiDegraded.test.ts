// Bad luck seen from the API: the chain's only RPC endpoint goes down, answers 500, then garbage, then recovers.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { RunningService } from "../../shared/app/startService.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";
import { type FaultProxy, startFaultProxy } from "../support/faultProxy.ts";
import { startTestChain, type TestChain } from "../support/feedHarness.ts";
import { expectedGwei } from "../support/independentFees.ts";
import { startLocalService } from "../support/startLocalService.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const POLL_INTERVAL_MS = 200;

let chain: TestChain;
let proxy: FaultProxy;
let service: RunningService;

before(async () => {
  chain = await startTestChain(520);
  proxy = await startFaultProxy(chain.node.url);
  service = await startLocalService(
    [{ chainId: 31337, name: "Local", rpcUrls: [proxy.url], blockTimeMs: 1000, statsWindowBlocks: 500, pollIntervalMs: POLL_INTERVAL_MS }],
    [{ key: KEY }],
  );
  await waitFor("data", async () => ((await callApi(service.url, "/networks/31337/baseFeeHistory", KEY)).status === 200 ? true : undefined));
});

after(async () => {
  await service?.stop();
  await proxy?.close();
  await chain?.node.stop();
});

const networkState = async () => (await callApi<Array<{ state: string; dataAgeMs: number }>>(service.url, "/networks", KEY)).body[0]!;

for (const mode of ["down", "http500", "malformed"] as const) {
  test(`with the endpoint ${mode}, the API keeps the last data with its age, reports degraded, then catches up with no gap`, async () => {
    const held = await callApi<string[]>(service.url, "/networks/31337/baseFeeHistory", KEY);
    proxy.setFaults({ mode });
    await chain.mine(3);
    await waitFor("the chain to be reported degraded", async () => ((await networkState()).state === "degraded" ? true : undefined), 10_000);

    const during = await callApi<string[]>(service.url, "/networks/31337/baseFeeHistory", KEY);
    assert.equal(during.status, 200);
    assert.deepEqual(during.body, held.body, "the last data is still served");
    assert.equal(during.headers.get("x-block-number"), held.headers.get("x-block-number"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const later = await callApi(service.url, "/networks/31337/busyThreshold", KEY);
    assert.ok(Number(later.headers.get("x-data-age-ms")) >= 300, `age ${later.headers.get("x-data-age-ms")} grows while the endpoint fails`);

    proxy.reset();
    const newest = chain.newestBlock;
    const caughtUp = await waitFor(
      "catching up",
      async () => {
        const answer = await callApi<string[]>(service.url, "/networks/31337/baseFeeHistory", KEY);
        return answer.headers.get("x-block-number") === newest.toString() ? answer : undefined;
      },
      15_000,
    );
    assert.deepEqual(caughtUp.body, chain.fees(newest - 499n, newest).map(expectedGwei), "no gap, no duplicate");
    assert.equal((await networkState()).state, "ok");
  });
}
