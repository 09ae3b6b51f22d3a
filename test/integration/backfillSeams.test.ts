// A backfill page joins the history only where it meets it: against real JSON-RPC servers on 127.0.0.1 (the project's
// stand-in, test/support/syntheticChainServer.ts), one of which lies on purpose, doubling every base fee with headers
// to match (each of its answers agrees with itself). The page that does not meet the history held is fetched again from
// another endpoint and the sources judged: a liar against a majority is set aside, two stories with no third are a dispute.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import type { BackfillPage } from "../../shared/backfill/backfillPage.ts";
import { BackfillRunner } from "../../shared/backfill/backfillRunner.ts";
import type { HeldFee } from "../../shared/backfill/backfillSeams.ts";
import { ChainEndpoints } from "../../shared/rpc/endpoints/chainEndpoints.ts";
import { recordingLogger } from "../support/feedHarness.ts";
import { startSyntheticChainServer, type SyntheticChainServer } from "../support/syntheticChainServer.ts";

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const HEAD = 2_000_000n;
const honestFee = (block: bigint) => 1_000_000_000n + ((block * 7_919n) % 50_000_000_000n);

async function server(lying = false): Promise<SyntheticChainServer> {
  const started = await startSyntheticChainServer({ head: HEAD, baseFeeOf: lying ? (block) => 2n * honestFee(block) : honestFee });
  cleanups.push(() => started.close());
  return started;
}

/** The history the runner fills: the live window held (from `liveSource`, or from before a restart: no known source), and each page kept. */
class History {
  readonly held = new Map<bigint, HeldFee>();
  readonly sources: string[] = [];
  constructor(liveSource: string | undefined) {
    for (let block = HEAD - 499n; block <= HEAD; block++) this.held.set(block, { baseFeeWei: honestFee(block), source: liveSource });
  }
  readonly heldFeeAt = (block: bigint) => this.held.get(block);
  readonly onPage = (page: BackfillPage, source: string) => {
    this.sources.push(source);
    page.baseFeesWei.forEach((fee, i) => this.held.set(page.firstBlock + BigInt(i), { baseFeeWei: fee, source }));
  };
  /** Blocks held with a fee other than the honest chain's. */
  get lies(): number {
    return [...this.held].filter(([block, held]) => held.baseFeeWei !== honestFee(block)).length;
  }
}

async function backfill(endpoints: ChainEndpoints | readonly string[], history: History) {
  const logger = recordingLogger();
  const runner = new BackfillRunner({
    chainId: 1,
    ...(endpoints instanceof ChainEndpoints ? { endpoints } : { rpcUrls: endpoints }),
    horizonSeconds: 12 * 4_000,
    blockTimeMs: 12_000,
    logger,
    requestsPerSecond: Number.POSITIVE_INFINITY,
    backoff: { initialMs: 20, maxMs: 200 },
    heldFeeAt: history.heldFeeAt,
    onPage: history.onPage,
  });
  cleanups.push(async () => {
    await runner.stop();
    if (endpoints instanceof ChainEndpoints) endpoints.close();
  });
  const outcome = await runner.run({
    heldRanges: [{ fromBlock: HEAD - 499n, toBlock: HEAD }],
    newest: { block: HEAD, timestamp: 1_700_000_000 + Number(HEAD) * 12 },
  });
  return { outcome, logger };
}

test(
  "a liar's page that does not meet the history kept from before is fetched again; the liar is set aside and nothing of it kept",
  { timeout: 60_000 },
  async () => {
    const liar = await server(true);
    const honest = await server();
    const history = new History(undefined);
    const { outcome, logger } = await backfill([liar.url, honest.url], history);
    assert.equal(outcome.oldestReached, true);
    assert.equal(history.lies, 0, "no doubled block kept");
    assert.deepEqual([...new Set(history.sources)], [honest.url], "every page from the honest endpoint");
    const setAside = logger.lines.filter((line) => / warn .*sets http:\/\/127\.0\.0\.1:\d+ aside for lying/.test(line));
    assert.equal(setAside.length, 1, logger.lines.join(""));
    assert.match(setAside[0]!, /block 1999501's base fee: \d+ at http:\/\/127\.0\.0\.1:\d+, where the others give \d+/);
    assert.ok(!logger.lines.some((line) => /no majority/.test(line)), "not a dispute: the history held is a third witness");
  },
);

test("of three endpoints, the one whose page stands against the other two and the history is set aside", { timeout: 60_000 }, async () => {
  const liar = await server(true);
  const first = await server();
  const second = await server();
  const layer = new ChainEndpoints(1, [liar.url, first.url, second.url]);
  // The live window came from the second endpoint: the liar's page is judged by it, the first endpoint and itself.
  const history = new History(second.url);
  const { outcome } = await backfill(layer, history);
  assert.equal(outcome.oldestReached, true);
  assert.equal(history.lies, 0);
  const [liarStatus, firstStatus] = layer.statuses(undefined);
  assert.equal(liarStatus!.state, "suspect");
  assert.equal(liarStatus!.setAsideFor, "disagrees");
  assert.match(liarStatus!.lastError ?? "", /block 1999501's base fee: \d+ at http:\/\/127\.0\.0\.1:\d+, where the others give \d+/);
  assert.equal(firstStatus!.state, "ok");
  assert.equal(layer.trusted().length, 2);
  assert.deepEqual(layer.disputes, []);
});

test("two endpoints, two stories: a dispute is said, nothing of the page that disagrees is kept, nobody is set aside", { timeout: 60_000 }, async () => {
  const liar = await server(true);
  const honest = await server();
  const layer = new ChainEndpoints(1, [liar.url, honest.url], { backoff: { initialMs: 20, maxMs: 200 } });
  // The live window came from the honest endpoint: the history is its word, not a third witness.
  const history = new History(honest.url);
  const { outcome, logger } = await backfill(layer, history);
  assert.equal(outcome.oldestReached, true);
  assert.equal(history.lies, 0, "the history is not rewritten on a dispute");
  assert.equal(layer.trusted().length, 2, "no majority: neither is set aside");
  assert.equal(layer.disputes.length >= 1, true);
  assert.match(layer.disputes[0]!, /block \d+'s base fee: \d+ at http:\/\/127\.0\.0\.1:\d+, \d+ at http:\/\/127\.0\.0\.1:\d+/);
  assert.ok(logger.lines.some((line) => / warn .*no majority settles it/.test(line)));
});
