// Through the project's stand-in JSON-RPC servers (test/support/syntheticChainServer.ts), one of which may lie on purpose.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { silentLogger } from "../../log/logger.ts";
import { startSyntheticChainServer, type SyntheticChainServer } from "../../../test/support/syntheticChainServer.ts";
import { BlockCrossCheck } from "./blockCrossCheck.ts";
import { ChainEndpoints } from "./chainEndpoints.ts";

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const honestFee = (block: bigint) => 1_000_000_000n + block;

async function servers(...fees: ((block: bigint) => bigint)[]): Promise<{ layer: ChainEndpoints; servers: SyntheticChainServer[] }> {
  const started = await Promise.all(fees.map((baseFeeOf) => startSyntheticChainServer({ head: 1_000n, baseFeeOf })));
  const layer = new ChainEndpoints(
    1,
    started.map((server) => server.url),
  );
  cleanups.push(
    () => Promise.all(started.map((server) => server.close())).then(() => undefined),
    () => layer.close(),
  );
  return { layer, servers: started };
}

test("one endpoint alone is never compared: the check costs nothing", async () => {
  const {
    layer,
    servers: [alone],
  } = await servers(honestFee);
  const check = new BlockCrossCheck(layer, { logger: silentLogger });
  check.offer(1_000n);
  await check.check(960n);
  assert.equal(alone!.calls(), 0);
});

test("endpoints that agree stay trusted; a sample is a block in 32, 8 deep, each asked once", async () => {
  const { layer, servers: started } = await servers(honestFee, honestFee, honestFee);
  const check = new BlockCrossCheck(layer, { logger: silentLogger });
  await check.check(960n);
  assert.equal(layer.trusted().length, 3);
  assert.deepEqual(
    started.map((server) => server.calls("eth_getBlockByNumber")),
    [1, 1, 1],
  );
});

test("the one against a majority is set aside with how it differed; two stories are a dispute until a sample agrees", async () => {
  const doubled = (block: bigint) => 2n * honestFee(block);
  const three = await servers(doubled, honestFee, honestFee);
  await new BlockCrossCheck(three.layer, { logger: silentLogger }).check(960n);
  const [liar] = three.layer.statuses(undefined);
  assert.equal(liar!.setAsideFor, "disagrees");
  assert.match(
    liar!.lastError!,
    /block 960: base fee 2000001920 wei, hash 0x0{61}3c0 at http:\/\/127\.0\.0\.1:\d+, where the others give base fee 1000000960 wei/,
  );

  // The second liar lies about blocks before 990 only: a later sample agrees.
  const two = await servers((block) => (block < 990n ? doubled(block) : honestFee(block)), honestFee);
  const check = new BlockCrossCheck(two.layer, { logger: silentLogger });
  await check.check(960n);
  assert.equal(two.layer.trusted().length, 2, "nobody is set aside");
  assert.equal(two.layer.disputes.length, 1);
  assert.match(two.layer.disputes[0]!, /^block 960: base fee 2000001920 wei, .* at http:\/\/127\.0\.0\.1:\d+, base fee 1000000960 wei, /);
  await check.check(992n);
  assert.deepEqual(two.layer.disputes, [], "a sample that agrees ends the dispute");
});
