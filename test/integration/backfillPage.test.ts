// One backfill page against a real JSON-RPC server on 127.0.0.1: what it asks, what it returns, and each way an answer
// is refused (every check on its own, with no other check standing in for it).
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { BackfillAnchors } from "../../shared/backfill/backfillAnchors.ts";
import { BackfillAnswerError } from "../../shared/backfill/backfillErrors.ts";
import { fetchBackfillPage, type BackfillPageChecks } from "../../shared/backfill/backfillPage.ts";
import type { FeeHistoryLimit } from "../../shared/rpc/feed/fetchBaseFees.ts";
import { MalformedRpcResponseError } from "../../shared/rpc/connection/errors.ts";
import { createRpcConnection, type RpcConnection } from "../../shared/rpc/connection/rpcConnection.ts";
import { startSyntheticChainServer, type SyntheticChainServer, type SyntheticFault } from "../support/syntheticChainServer.ts";

const HEAD = 100_000n;
const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function endpoint(fault: SyntheticFault = "none"): Promise<{ chain: SyntheticChainServer; connection: RpcConnection }> {
  const chain = await startSyntheticChainServer({ head: HEAD, fault, timestampOf: (block) => 1_600_000_000 + Number(block) * 12 });
  const connection = createRpcConnection(chain.url, { timeoutMs: 10_000 });
  cleanups.push(
    () => chain.close(),
    () => connection.close(),
  );
  return { chain, connection };
}

function learningLimit(): FeeHistoryLimit {
  let maxBlocks = Number.POSITIVE_INFINITY;
  return {
    get maxBlocks() {
      return maxBlocks;
    },
    lower(blocks) {
      maxBlocks = Math.min(maxBlocks, blocks);
    },
  };
}

const range = (fromBlock: bigint, toBlock: bigint) => ({ fromBlock, toBlock });
/** No timestamp known: only the page's own checks apply. */
const noAnchors = (): BackfillPageChecks => ({ anchors: new BackfillAnchors(), nowSeconds: Date.now() / 1000, maxFutureSeconds: 900 });

test("an honest page: its fees, gas-used ratios and blob fees, and its two ends' exact timestamps, in three calls", async () => {
  const { chain, connection } = await endpoint();
  const page = await fetchBackfillPage(connection, range(HEAD - 1523n, HEAD - 500n), learningLimit(), noAnchors());
  const blocks = Array.from({ length: 1024 }, (_, i) => HEAD - 1523n + BigInt(i));
  assert.equal(page.firstBlock, HEAD - 1523n);
  assert.deepEqual(page.baseFeesWei, blocks.map(chain.baseFeeOf));
  assert.deepEqual(page.gasUsedRatios, blocks.map(chain.gasUsedRatioOf));
  assert.deepEqual(page.blobBaseFeesWei, blocks.map(chain.blobBaseFeeOf));
  assert.deepEqual(page.anchors, [
    { block: HEAD - 1523n, timestamp: chain.timestampOf(HEAD - 1523n) },
    { block: HEAD - 500n, timestamp: chain.timestampOf(HEAD - 500n) },
  ]);
  assert.equal(chain.calls("eth_feeHistory"), 1);
  assert.equal(chain.calls("eth_getBlockByNumber"), 2);
  const single = await fetchBackfillPage(connection, range(0n, 0n), learningLimit(), noAnchors());
  assert.deepEqual(single.anchors, [{ block: 0n, timestamp: chain.timestampOf(0n) }], "a one-block page has one anchor");
  assert.equal(chain.calls("eth_getBlockByNumber"), 3);
});

test("a page larger than the endpoint serves: the refusal names its cap, the cap is learned, the page holds the newest blocks", async () => {
  const { chain, connection } = await endpoint();
  const limit = learningLimit();
  const page = await fetchBackfillPage(connection, range(HEAD - 2999n, HEAD - 1000n), limit, noAnchors());
  assert.equal(limit.maxBlocks, 1024);
  assert.equal(page.firstBlock, HEAD - 1000n - 1023n);
  assert.equal(page.baseFeesWei.length, 1024);
  assert.equal(chain.calls("eth_feeHistory"), 2, "one refused, one answered");
});

test("a page cut short teaches the endpoint's cap once; cut shorter than that cap, it is refused", async () => {
  const { connection } = await endpoint("shrinking-pages");
  const limit = learningLimit();
  const full = await fetchBackfillPage(connection, range(HEAD - 2023n, HEAD - 1000n), limit, noAnchors());
  assert.equal(full.baseFeesWei.length, 1024);
  const short = await fetchBackfillPage(connection, range(HEAD - 3047n, HEAD - 2024n), limit, noAnchors());
  assert.equal(short.baseFeesWei.length, 512);
  assert.equal(short.firstBlock, HEAD - 2024n - 511n);
  assert.equal(limit.maxBlocks, 512);
  await assert.rejects(
    fetchBackfillPage(connection, range(HEAD - 3559n, HEAD - 3048n), limit, noAnchors()),
    (error: unknown) =>
      error instanceof BackfillAnswerError && /gave 256 blocks ending at block 96952 where 512 were asked, within its own limit/.test(error.message),
  );
});

const refusals: ReadonlyArray<{ fault: SyntheticFault; checks?: () => BackfillPageChecks; error: RegExp; type?: typeof MalformedRpcResponseError }> = [
  { fault: "ends-elsewhere", error: /ends at block 98999 where block 99000 was asked/, type: MalformedRpcResponseError },
  { fault: "header-of-next-block", error: /eth_getBlockByNumber for block 97977 gave block 97978/ },
  { fault: "header-fee-mismatch", error: /block 97977's header has base fee \d+ where eth_feeHistory gave \d+ wei/ },
  { fault: "timestamps-backwards", error: /block 97977 at 1499902023 is later than block 99000 at 1499901000/ },
  { fault: "timestamps-future", error: /block 97977's timestamp \d+ is 86[34]\d\d s in the future/ },
  {
    fault: "timestamps-late",
    checks: () => ({ ...noAnchors(), anchors: new BackfillAnchors([{ block: HEAD, timestamp: 1_600_000_000 + Number(HEAD) * 12 }]) }),
    error: /timestamps out of order: block 97977 at 1601262124 would be newer than block 100000 at 1601200000/,
  },
];
for (const { fault, checks = noAnchors, error, type = BackfillAnswerError } of refusals) {
  test(`a page is refused when ${fault}`, async () => {
    const { connection } = await endpoint(fault);
    await assert.rejects(
      fetchBackfillPage(connection, range(HEAD - 2023n, HEAD - 1000n), learningLimit(), checks()),
      (caught: unknown) => caught instanceof type && error.test(caught.message),
    );
  });
}
