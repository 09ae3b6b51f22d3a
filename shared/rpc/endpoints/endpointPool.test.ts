import assert from "node:assert/strict";
import { test } from "node:test";
import { EndpointPool } from "./endpointPool.ts";
import { ChainEndpoints } from "./chainEndpoints.ts";
import { RpcEndpointError } from "../connection/errors.ts";

const backoff = { initialMs: 50, maxMs: 800 };
const failure = new Error("eth_feeHistory at http://127.0.0.1:9 failed: the method does not exist");

function pool(urls = ["http://127.0.0.1:9", "ws://127.0.0.1:9"]) {
  return new EndpointPool(new ChainEndpoints(1, urls, { timeoutMs: 1000, backoff }));
}

test("the wait after a failure doubles up to the longest, and passing the probe's checks does not reset it", () => {
  const endpoints = pool();
  const [endpoint] = endpoints.endpoints;
  const waitsMs: number[] = [];
  for (let i = 0; i < 6; i++) {
    endpoints.markFailing(endpoint!, failure, 1000);
    waitsMs.push(endpoint!.retryAt! - 1000);
    assert.deepEqual(endpoints.takeDue(1000 + waitsMs[i]!), [endpoint]);
    endpoints.markAnswering(endpoint!);
    assert.equal(endpoint!.state, "ok", "usable again after passing the checks");
  }
  assert.deepEqual(waitsMs, [50, 100, 200, 400, 800, 800]);
});

test("serving the feed starts the backoff again from the shortest wait, and says the endpoint recovered", () => {
  const endpoints = pool();
  const [endpoint] = endpoints.endpoints;
  assert.equal(endpoints.markServing(endpoint!), false, "never failed: not a recovery");
  endpoints.markFailing(endpoint!, failure, 0);
  endpoints.markAnswering(endpoint!);
  endpoints.markFailing(endpoint!, failure, 0);
  assert.equal(endpoint!.retryAt, 100);
  endpoints.markAnswering(endpoint!);
  assert.equal(endpoints.markServing(endpoint!), true);
  endpoints.markFailing(endpoint!, failure, 0);
  assert.equal(endpoint!.retryAt, 50);
});

test("a failure that asked for a wait (a 429's or 503's Retry-After) is waited out, up to the longest wait", () => {
  const endpoints = pool();
  const [endpoint] = endpoints.endpoints;
  const refused = (retryAfterMs: number) =>
    new RpcEndpointError("http://127.0.0.1:9", "eth_feeHistory", "HTTP 429 Too Many Requests", undefined, 429, retryAfterMs);
  endpoints.markFailing(endpoint!, refused(300), 0);
  assert.equal(endpoint!.retryAt, 300, "longer than the shortest wait (50 ms): as asked");
  endpoints.markFailing(endpoint!, refused(10), 0);
  assert.equal(endpoint!.retryAt, 100, "never shorter than the backoff's own wait (the second failure's: 100 ms)");
  endpoints.markFailing(endpoint!, refused(3_600_000), 0);
  assert.equal(endpoint!.retryAt, 800, "an hour asked: the longest wait");
});

test("a wrong-chain endpoint waits the longest, is never usable meanwhile, and a due endpoint is handed out once", () => {
  const endpoints = pool();
  const [first, second] = endpoints.endpoints;
  endpoints.markWrongChain(first!, new Error("serves chain 5"), 5, 0);
  assert.deepEqual(endpoints.usable(), [second]);
  assert.equal(first!.retryAt, 800);
  assert.equal(endpoints.nextRetryAt(), 800);
  assert.deepEqual(endpoints.takeDue(799), []);
  assert.deepEqual(endpoints.takeDue(800), [first]);
  assert.deepEqual(endpoints.takeDue(800), [], "being probed");
  assert.equal(endpoints.nextRetryAt(), undefined);
  assert.equal(endpoints.allDown(), false, "the second was never tried");
  endpoints.markFailing(second!, failure, 0);
  assert.equal(endpoints.allDown(), true);
});

test("statuses: each endpoint as /networks shows it, URLs redacted", () => {
  const endpoints = pool(["http://127.0.0.1:9/v3/abcdef0123456789abcdef0123456789", "ws://127.0.0.1:9"]);
  const [first, second] = endpoints.endpoints;
  endpoints.recordChainId(first!, 1);
  endpoints.markVerified(first!);
  endpoints.markServing(first!);
  endpoints.markFailing(second!, failure, 1000);
  assert.equal(first!.verified, true);
  assert.deepEqual(endpoints.statuses(first), [
    { url: "http://127.0.0.1:9/…", transport: "http", state: "ok", active: true, reportedChainId: 1 },
    { url: "ws://127.0.0.1:9", transport: "ws", state: "failing", active: false, lastError: failure.message, retryAt: 1050 },
  ]);
});

test("the fee-history limit the pool keeps per endpoint only ever goes down", () => {
  const endpoints = pool();
  const limit = endpoints.feeHistoryLimit(endpoints.endpoints[0]!);
  assert.equal(limit.maxBlocks, Number.POSITIVE_INFINITY);
  limit.lower(300);
  limit.lower(1000);
  assert.equal(endpoints.feeHistoryLimit(endpoints.endpoints[0]!).maxBlocks, 300);
  assert.equal(endpoints.feeHistoryLimit(endpoints.endpoints[1]!).maxBlocks, Number.POSITIVE_INFINITY);
});

test("the pool refuses endpoints that are not its own, and backoffs it cannot honour", () => {
  const endpoints = pool();
  assert.throws(() => endpoints.markServing(pool().endpoints[0]!), /is not an endpoint of this pool/);
  assert.throws(() => new ChainEndpoints(1, ["http://127.0.0.1:9"], { timeoutMs: 1000, backoff: { initialMs: 0, maxMs: 10 } }), /positive time/);
  assert.throws(() => new ChainEndpoints(1, [], { timeoutMs: 1000, backoff }), /at least one RPC URL/);
});
