// Against the real service following real endpoints: ports where nothing listens (refused at once, as offline DNS
// failures are) and a real Hardhat node.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { after, test } from "node:test";
import { waitFor } from "../../test/support/waitFor.ts";
import { startEvmNode, type EvmNode } from "../demo/startEvmNode.ts";
import { silentLogger } from "../log/logger.ts";
import type { ChainPlan } from "../service/chainPlan.ts";
import type { ChainPublication } from "../service/chainPublication.ts";
import { FeeService } from "../service/feeService.ts";
import { watchForNoChainReachable } from "./noChainReachable.ts";

/** A local URL where nothing listens. */
async function deadUrl(): Promise<string> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const plan = (chainId: number, url: string): ChainPlan => ({
  chainId,
  name: `Chain ${chainId}`,
  rpcUrls: [url],
  blockTimeMs: 1000,
  statsWindowBlocks: 500,
  pollIntervalMs: 100,
});

const services: FeeService[] = [];
const nodes: EvmNode[] = [];
after(async () => {
  await Promise.all(services.map((service) => service.stop()));
  await Promise.all(nodes.map((node) => node.stop()));
});

test("when no chain can be reached it calls once, with every chain", async () => {
  const service = new FeeService([plan(1, await deadUrl()), plan(10, await deadUrl())], { logger: silentLogger });
  services.push(service);
  const calls: Array<readonly ChainPublication[]> = [];
  watchForNoChainReachable(service, (chains) => calls.push(chains));
  let publications = 0;
  service.subscribe(() => publications++);
  service.start();
  await waitFor("the call", () => (calls.length > 0 ? true : undefined), 30_000);
  // The feeds keep trying (and publishing); it is said once only.
  const seen = publications;
  await waitFor("more attempts", () => (publications >= seen + 4 ? true : undefined), 30_000);
  assert.equal(calls.length, 1);
  assert.deepEqual(
    calls[0]!.map((chain) => [chain.chainId, chain.status.state]),
    [
      [1, "unreachable"],
      [10, "unreachable"],
    ],
  );
});

test("while one chain answers, nothing is said about the others", async () => {
  const node = await startEvmNode();
  nodes.push(node);
  await node.mineBlocks([1_000_000_000n, 2_000_000_000n]);
  const service = new FeeService([plan(31337, node.url), plan(10, await deadUrl())], { logger: silentLogger });
  services.push(service);
  let calls = 0;
  watchForNoChainReachable(service, () => calls++);
  service.start();
  await waitFor("one chain followed, the other unreachable", () =>
    service.get(31337)?.status.state === "ok" && service.get(10)?.status.state === "unreachable" ? true : undefined,
  );
  await node.stop();
  // Its node gone, the followed chain is degraded (it has data), not unreachable: still nothing to say.
  await waitFor("the followed chain degraded", () => (service.get(31337)?.status.state === "degraded" ? true : undefined), 30_000);
  assert.equal(calls, 0);
});
