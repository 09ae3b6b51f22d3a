// The history's backfill against real JSON-RPC servers on 127.0.0.1 serving synthetic chains (any length, any fault):
// what it fetches, how gently, what it refuses, and how it stops and resumes.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import type { BlockAnchor } from "../../shared/backfill/backfillAnchors.ts";
import type { BackfillPage } from "../../shared/backfill/backfillPage.ts";
import { BlockRangeSet, type BlockRange } from "../../shared/backfill/backfillRanges.ts";
import { BackfillRunner, type BackfillProgress, type BackfillRunnerOptions, type BackfillTarget } from "../../shared/backfill/backfillRunner.ts";
import { recordingLogger } from "../support/feedHarness.ts";
import { waitFor } from "../support/waitFor.ts";
import { startSyntheticChainServer, type SyntheticChainOptions, type SyntheticChainServer } from "../support/syntheticChainServer.ts";

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const DAY = 86_400;
const WEEK = 7 * DAY;
/** A fake provider key in the URL's path: it must never reach a log line. */
const KEY = "0123456789abcdef0123456789abcdef";

async function server(options: SyntheticChainOptions): Promise<SyntheticChainServer> {
  const started = await startSyntheticChainServer(options);
  cleanups.push(() => started.close());
  return started;
}

/** Keeps every page and progress report a runner hands out, and checks each page against the chain it came from. */
class Recorder {
  readonly pages: BackfillPage[] = [];
  readonly progress: BackfillProgress[] = [];
  constructor(readonly chain: SyntheticChainServer) {}
  readonly onPage = (page: BackfillPage): void => {
    this.pages.push(page);
  };
  readonly onProgress = (progress: BackfillProgress): void => {
    this.progress.push(progress);
  };
  get held(): BlockRange[] {
    return this.pages.map((page) => ({ fromBlock: page.firstBlock, toBlock: page.firstBlock + BigInt(page.baseFeesWei.length) - 1n }));
  }
  get anchors(): BlockAnchor[] {
    return this.pages.flatMap((page) => page.anchors);
  }
  /** Every page's fees, ratios, blob fees and anchors are exactly the chain's. */
  assertExact(): void {
    for (const page of this.pages) {
      const blocks = page.baseFeesWei.map((_, i) => page.firstBlock + BigInt(i));
      assert.deepEqual(page.baseFeesWei, blocks.map(this.chain.baseFeeOf), `fees of the page from ${page.firstBlock}`);
      assert.deepEqual(page.gasUsedRatios, blocks.map(this.chain.gasUsedRatioOf));
      assert.deepEqual(page.blobBaseFeesWei, blocks.map(this.chain.blobBaseFeeOf));
      const ends = [...new Set([blocks[0]!, blocks.at(-1)!])];
      assert.deepEqual(
        page.anchors,
        ends.map((block) => ({ block, timestamp: this.chain.timestampOf(block) })),
        `anchors of the page from ${page.firstBlock}`,
      );
    }
  }
}

/** The live feed's window: the newest 500 blocks, with the newest one's exact timestamp. */
function liveWindow(chain: SyntheticChainServer): BackfillTarget {
  return {
    heldRanges: [{ fromBlock: chain.head - 499n, toBlock: chain.head }],
    newest: { block: chain.head, timestamp: chain.timestampOf(chain.head) },
  };
}

function runner(options: Partial<BackfillRunnerOptions> & Pick<BackfillRunnerOptions, "rpcUrls" | "onPage">): BackfillRunner {
  const created = new BackfillRunner({
    chainId: 1,
    horizonSeconds: WEEK,
    blockTimeMs: 12_000,
    logger: recordingLogger(),
    requestsPerSecond: Number.POSITIVE_INFINITY,
    ...options,
  });
  cleanups.push(() => created.stop());
  return created;
}

test("a week of a 12 s chain, newest first, every page exact, three calls a page, ending at the horizon", async () => {
  const chain = await server({ head: 5_000_000n });
  const recorder = new Recorder(chain);
  const logger = recordingLogger();
  const backfill = runner({ rpcUrls: [`${chain.url}/v3/${KEY}`], onPage: recorder.onPage, onProgress: recorder.onProgress, logger });
  const outcome = await backfill.run(liveWindow(chain));

  recorder.assertExact();
  const tops = recorder.pages.map((page) => page.firstBlock);
  assert.deepEqual(
    tops,
    [...tops].sort((a, b) => (a > b ? -1 : 1)),
    "newest first",
  );
  const held = new BlockRangeSet([...recorder.held, ...liveWindow(chain).heldRanges]);
  assert.equal(held.ranges.length, 1, "no gap, no overlap");
  const oldest = held.ranges[0]!.fromBlock;
  const horizonStart = chain.timestampOf(chain.head) - WEEK;
  assert.ok(chain.timestampOf(oldest) < horizonStart, "the oldest block fetched is beyond the horizon");
  assert.ok(chain.timestampOf(oldest + 1024n) >= horizonStart, "and no whole page beyond it was fetched");
  // 604,800 s / 12 s = 50,400 blocks inside the horizon; less the live 500, 49,901 blocks: 49 pages of 1,024.
  assert.equal(recorder.pages.length, 49);
  assert.equal(chain.calls("eth_chainId"), 1);
  assert.equal(chain.calls("eth_feeHistory"), 49);
  assert.equal(chain.calls("eth_getBlockByNumber"), 98);
  assert.deepEqual(
    { ...outcome },
    { running: false, blocksFetched: 49 * 1024, blocksToGo: 0, oldestReached: true, pagesFetched: 49, requests: 148, stopped: false },
  );
  assert.deepEqual(backfill.requestsByEndpoint(), [{ url: `${chain.url}/…`, requests: 148 }]);

  // Progress: running from the first report to the last, which says the horizon is reached.
  assert.equal(recorder.progress.length, 51);
  // The first estimate (from the configured 12 s and the newest block alone) rounds to whole pages: 50 of them.
  assert.deepEqual(recorder.progress[0], { running: true, blocksFetched: 0, blocksToGo: 51_200 - 499, oldestReached: false });
  assert.deepEqual(recorder.progress.at(-1), { running: false, blocksFetched: 49 * 1024, blocksToGo: 0, oldestReached: true });
  for (let i = 1; i < recorder.progress.length; i++) {
    assert.ok(recorder.progress[i]!.blocksFetched >= recorder.progress[i - 1]!.blocksFetched);
    assert.ok(recorder.progress[i]!.blocksToGo <= recorder.progress[i - 1]!.blocksToGo);
  }
  // One info line at the start and one at the end; a debug line per page; the key never.
  const infos = logger.lines.filter((line) => / info /.test(line));
  assert.equal(infos.length, 2, infos.join(""));
  assert.match(infos[0]!, /history backfill starts: about 50701 blocks missing from block 4999500 back/);
  assert.match(infos[1]!, /history backfill done: 50176 blocks in 49 pages \(148 requests/);
  assert.equal(logger.lines.filter((line) => / debug /.test(line) && /backfilled blocks/.test(line)).length, 49);
  assert.ok(!logger.lines.join("").includes(KEY));
});

/** Fails unless every window of one second holds at most `perSecond` of `arrivalsMs` (sorted), give or take `jitterMs`. */
function assertAtMostPerSecond(arrivalsMs: readonly number[], perSecond: number, what: string, jitterMs = 100): void {
  for (let i = perSecond; i < arrivalsMs.length; i++) {
    const spanMs = arrivalsMs[i]! - arrivalsMs[i - perSecond]!;
    assert.ok(spanMs >= 1000 - jitterMs, `${what}: calls ${i - perSecond} and ${i} arrived ${spanMs.toFixed(0)} ms apart`);
  }
}

test("at most 2 calls per second reach an endpoint, counted where they arrive; every page from one source at a time", { timeout: 120_000 }, async () => {
  const first = await server({ head: 1_000_000n });
  const second = await server({ head: 1_000_000n });
  const recorder = new Recorder(first);
  const sources = new Set<string>();
  const startedAt = performance.now();
  // 500 live blocks and 6 pages of 128 below them: about 20 calls, 10 s at 2 per second through one endpoint.
  const backfill = runner({
    rpcUrls: [first.url, second.url],
    onPage: (page, source) => {
      sources.add(source);
      recorder.onPage(page);
    },
    requestsPerSecond: 2,
    pageBlocks: 128,
    horizonSeconds: 12 * (500 + 6 * 128 - 1),
  });
  const outcome = await backfill.run(liveWindow(first));
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  recorder.assertExact();
  assert.equal(outcome.oldestReached, true);
  assert.deepEqual([...sources], [first.url], "one source: the first endpoint, which answers");
  assert.ok(first.calls("eth_feeHistory") >= 6, "the first endpoint served the pages");
  assert.equal(second.calls(), 0, "the second is not asked while the first answers");
  assertAtMostPerSecond(first.arrivalsMs, 2, "the first endpoint");
  assert.ok(first.calls() <= 2 * (Math.floor(elapsedSeconds) + 1), `${first.calls()} calls in ${elapsedSeconds.toFixed(1)} s`);
  assert.equal(first.calls() + second.calls(), outcome.requests);
});

test("an endpoint answering 429 is backed off, longer after each refusal, and the backfill completes once it answers", { timeout: 60_000 }, async () => {
  // Retry-After: 0 asks for no particular wait: the backfill's own doubling decides.
  const chain = await server({ head: 1_000_000n, fault: "http429", retryAfterSeconds: 0 });
  const recorder = new Recorder(chain);
  const logger = recordingLogger();
  const backfill = runner({
    rpcUrls: [`${chain.url}/v3/${KEY}`],
    onPage: recorder.onPage,
    logger,
    backoff: { initialMs: 200, maxMs: 5_000 },
    horizonSeconds: 12 * 3_000,
  });
  const done = backfill.run(liveWindow(chain));
  await waitFor("four refused calls", () => chain.calls() >= 4);
  chain.setFault("none");
  const outcome = await done;
  const gapsMs = chain.arrivalsMs.slice(1, 4).map((at, i) => at - chain.arrivalsMs[i]!);
  // 200, 400 and 800 ms at least (the calls' arrival may shift by a few milliseconds either way).
  gapsMs.forEach((gapMs, i) => assert.ok(gapMs >= 200 * 2 ** i - 50, `wait ${i + 1} was ${gapMs.toFixed(0)} ms`));
  recorder.assertExact();
  assert.equal(outcome.oldestReached, true);
  const warnings = logger.lines.filter((line) => / warn /.test(line));
  assert.equal(warnings.length, 1, "one warning, at the third failure in a row");
  assert.match(warnings[0]!, /\/… failed 3 time\(s\) in a row; asking it again in 800 ms.*HTTP 429/);
  assert.ok(!logger.lines.join("").includes(KEY));
});

test("a 429's Retry-After is waited out: longer than the backfill's own backoff when the endpoint asks for longer", { timeout: 60_000 }, async () => {
  const chain = await server({ head: 1_000_000n, fault: "http429", retryAfterSeconds: 2 });
  const recorder = new Recorder(chain);
  const logger = recordingLogger();
  const backfill = runner({
    rpcUrls: [`${chain.url}/v3/${KEY}`],
    onPage: recorder.onPage,
    logger,
    backoff: { initialMs: 200, maxMs: 5_000 },
    horizonSeconds: 12 * 3_000,
    warnAfterFailures: 1,
  });
  const done = backfill.run(liveWindow(chain));
  await waitFor("two refused calls", () => chain.calls() >= 2);
  chain.setFault("none");
  const outcome = await done;
  const firstWaitMs = chain.arrivalsMs[1]! - chain.arrivalsMs[0]!;
  assert.ok(firstWaitMs >= 2_000 - 50, `the first wait was ${firstWaitMs.toFixed(0)} ms, the endpoint asked for 2 s`);
  assert.match(logger.lines.find((line) => / warn /.test(line)) ?? "", /asking it again in 2000 ms.*HTTP 429/);
  assert.equal(outcome.oldestReached, true);
});

for (const fault of [
  "wrong-chain",
  "ends-elsewhere",
  "shrinking-pages",
  "header-fee-mismatch",
  "timestamps-backwards",
  "timestamps-late",
  "timestamps-future",
] as const) {
  test(`an endpoint whose answers cannot be true (${fault}) is set aside; the other endpoint's exact pages complete the history`, async () => {
    const hostile = await server({ head: 2_000_000n, fault });
    const honest = await server({ head: 2_000_000n });
    const recorder = new Recorder(honest);
    const logger = recordingLogger();
    const backfill = runner({ rpcUrls: [`${hostile.url}/v3/${KEY}`, honest.url], onPage: recorder.onPage, logger, horizonSeconds: DAY });
    const outcome = await backfill.run(liveWindow(honest));
    recorder.assertExact();
    assert.equal(outcome.oldestReached, true);
    const setAside = logger.lines.filter((line) => / warn .*sets http:\/\/127\.0\.0\.1:\d+\/… aside: /.test(line));
    assert.equal(setAside.length, 1, logger.lines.join(""));
    assert.ok(!logger.lines.join("").includes(KEY));
    const [hostileCalls] = backfill.requestsByEndpoint();
    // Its chain id, then one page's calls (the moving cap: a full page, a short one that sets the cap, a shorter one).
    const mostCalls = fault === "wrong-chain" ? 1 : fault === "shrinking-pages" ? 1 + 3 + 3 + 1 : 4;
    assert.ok(hostileCalls!.requests <= mostCalls, `${hostileCalls!.requests} calls to the hostile endpoint`);
  });
}

test("stop() ends a run at once: a hanging request, a long backoff and a rate-limit wait are all cut short, no timer left", { timeout: 30_000 }, async () => {
  const hanging = await server({ head: 1_000_000n, fault: "hang" });
  const failing = await server({ head: 1_000_000n, fault: "http500" });
  const slow = await server({ head: 1_000_000n });
  const progress: BackfillProgress[] = [];
  const timersBefore = process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
  const options = {
    chainId: 1,
    horizonSeconds: WEEK,
    blockTimeMs: 12_000,
    logger: recordingLogger(),
    onPage: () => {},
    onProgress: (report: BackfillProgress) => progress.push(report),
    // One call per 100 s to each endpoint: after its chain id, each waits.
    requestsPerSecond: 0.01,
    requestTimeoutMs: 600_000,
    backoff: { initialMs: 600_000, maxMs: 600_000 },
  };
  // One source at a time: a hanging one holds its run; a failing one is left for the next, which then waits its rate.
  const stuck = new BackfillRunner({ ...options, rpcUrls: [hanging.url] });
  const waiting = new BackfillRunner({ ...options, rpcUrls: [failing.url, slow.url] });
  const done = [stuck.run(liveWindow(slow)), waiting.run(liveWindow(slow))];
  await waitFor("each endpoint's first call", () => hanging.calls() === 1 && failing.calls() === 1 && slow.calls() === 1);
  const reportsBeforeStop = progress.length;
  await Promise.all([stuck.stop(), waiting.stop()]);
  for (const outcome of await Promise.all(done)) {
    assert.equal(outcome.stopped, true);
    assert.equal(outcome.running, false);
  }
  assert.equal(progress.length, reportsBeforeStop, "no progress reported after stop()");
  await waitFor("the hanging request's connection closed", () => hanging.abandonedCalls === 1);
  assert.equal(process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length, timersBefore, "no timer left");
  assert.equal(hanging.calls() + failing.calls() + slow.calls(), 3);
});

test("a run stopped half way resumes from what was kept: the rest only, nothing fetched twice", async () => {
  const chain = await server({ head: 3_000_000n });
  const firstRun = new Recorder(chain);
  const first: BackfillRunner = runner({
    rpcUrls: [chain.url],
    onPage: firstRun.onPage,
    onProgress: (progress) => {
      if (progress.blocksFetched >= 20 * 1024) void first.stop();
    },
  });
  const stopped = await first.run(liveWindow(chain));
  assert.equal(stopped.stopped, true);
  assert.equal(firstRun.pages.length, 20);
  const callsBefore = chain.calls();

  const secondRun = new Recorder(chain);
  const second = runner({ rpcUrls: [chain.url], onPage: secondRun.onPage });
  const live = liveWindow(chain);
  const outcome = await second.run({ ...live, heldRanges: [...live.heldRanges, ...firstRun.held], anchors: firstRun.anchors });
  assert.equal(outcome.oldestReached, true);
  secondRun.assertExact();
  const all = [...firstRun.held, ...secondRun.held, ...live.heldRanges];
  const held = new BlockRangeSet(all);
  assert.equal(held.ranges.length, 1);
  const blocks = all.reduce((sum, range) => sum + Number(range.toBlock - range.fromBlock + 1n), 0);
  assert.equal(blocks, Number(held.ranges[0]!.toBlock - held.ranges[0]!.fromBlock + 1n), "no block fetched twice");
  assert.equal(secondRun.pages.length, 29);
  assert.equal(chain.calls() - callsBefore, 1 + 3 * 29);
});

test("a restart after a day away fetches only the day's blocks: between the stored newest and the live window", async () => {
  const chain = await server({ head: 4_000_000n });
  const firstRun = new Recorder(chain);
  const firstLive = liveWindow(chain);
  await runner({ rpcUrls: [chain.url], onPage: firstRun.onPage }).run(firstLive);
  const stored = [...firstRun.held, ...firstLive.heldRanges];
  const storedAnchors = [...firstRun.anchors, firstLive.newest];

  chain.head += 7_200n; // a day of 12 s blocks
  const callsBefore = chain.calls();
  const dayRun = new Recorder(chain);
  const live = liveWindow(chain);
  const outcome = await runner({ rpcUrls: [chain.url], onPage: dayRun.onPage }).run({
    ...live,
    heldRanges: [...stored, ...live.heldRanges],
    anchors: storedAnchors,
  });
  dayRun.assertExact();
  assert.equal(outcome.oldestReached, true);
  assert.deepEqual(new BlockRangeSet(dayRun.held).ranges, [{ fromBlock: 4_000_001n, toBlock: chain.head - 500n }]);
  // 6,700 blocks: 7 pages of three calls, and the chain id.
  assert.equal(dayRun.pages.length, 7);
  assert.equal(chain.calls() - callsBefore, 22);
});

test("a page the caller cannot keep stops the backfill: run() rejects with the caller's error", async () => {
  const chain = await server({ head: 1_000_000n });
  const logger = recordingLogger();
  let pages = 0;
  const backfill = runner({
    rpcUrls: [chain.url],
    logger,
    onPage: () => {
      if (++pages === 3) throw new Error("disk full");
    },
  });
  await assert.rejects(backfill.run(liveWindow(chain)), /disk full/);
  assert.equal(pages, 3);
  assert.ok(logger.lines.some((line) => / error .*a page could not be kept \(Error: disk full\)/.test(line)));
  assert.equal(chain.calls("eth_feeHistory"), 3);
});
