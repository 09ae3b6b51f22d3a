// A chain feed judging its endpoint's answers (rpc/feed/chainHead.ts), seen through its reports and its log, against an
// endpoint that lies on request (test/support/hostileRpcServer.ts: no real node lies like this).
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { ChainFeed } from "../../shared/rpc/feed/chainFeed.ts";
import { FeedReports, recordingLogger } from "../support/feedHarness.ts";
import { waitFor } from "../support/waitFor.ts";
import { startHostileRpcServer, type HostileRpcServer } from "../support/hostileRpcServer.ts";

const CHAIN = 41_101;
const running: { stop(): Promise<unknown> }[] = [];
after(() => Promise.all(running.map((one) => one.stop())));

async function follow(server: HostileRpcServer, extra: { chainIdRecheckMs?: number } = {}) {
  const logger = recordingLogger();
  const reports = new FeedReports();
  const feed = new ChainFeed({
    chainId: CHAIN,
    rpcUrls: [server.httpUrl],
    blockTimeMs: 1000,
    windowBlocks: 500,
    pollIntervalMs: 50,
    backoff: { initialMs: 50, maxMs: 200 },
    logger,
    onReport: reports.onReport,
    ...extra,
  });
  running.push(feed, { stop: () => server.close() });
  feed.start();
  await waitFor("the feed at the endpoint's head", () => reports.latest?.snapshot?.newestBlock === server.head);
  return { logger, endpoint: () => reports.latest!.endpoints[0]!, report: () => reports.latest! };
}

test("an endpoint set aside as suspect is said once in the log, however often its checks fail, and once when it agrees again", async () => {
  const server = await startHostileRpcServer({ chainId: CHAIN, head: 600n });
  const feed = await follow(server);
  await server.turn("head-ahead");
  await waitFor("the endpoint suspect, the chain degraded", () => feed.endpoint().state === "suspect" && feed.report().phase === "degraded");
  // Its checks go on while it is set aside (the backoff is short here): each is a lie, none is said again.
  await waitFor("a dozen lies", () => server.hostileAnswers >= 12);
  const setAside = feed.logger.lines.filter((line) => line.includes("is set aside"));
  assert.equal(setAside.length, 1, setAside.join(""));
  assert.match(setAside[0]!, /warn .*chain 41101: http:\/\/127\.0\.0\.1:\d+ is set aside: its head 1000600 is 1000000 blocks ahead of block 600/);
  assert.equal(feed.report().snapshot!.newestBlock, 600n, "nothing of the lie is kept");
  await server.turn("honest");
  server.mine();
  await waitFor("the chain followed again", () => feed.report().snapshot?.newestBlock === 601n && feed.report().phase === "ok");
  assert.equal(feed.logger.lines.filter((line) => line.includes("answers again")).length, 1);
});

test("an endpoint that starts reporting another chain's id with the same blocks is caught by the periodic chain id check", async () => {
  const server = await startHostileRpcServer({ chainId: CHAIN, head: 600n });
  const feed = await follow(server, { chainIdRecheckMs: 300 });
  await server.turn("other-chain-id");
  await waitFor("the endpoint on another chain", () => feed.endpoint().state === "wrong-chain");
  assert.equal(feed.endpoint().reportedChainId, CHAIN + 1);
  assert.equal(feed.report().phase, "degraded");
});
