import assert from "node:assert/strict";
import { test } from "node:test";
import { EndpointHealth } from "./endpointHealth.ts";
import { RpcEndpointError, WrongChainError } from "../connection/errors.ts";

const backoff = { initialMs: 50, maxMs: 800 };
const failure = new Error("eth_feeHistory at http://127.0.0.1:9 failed: the method does not exist");

test("failures in a row back off by the one policy, a Retry-After honoured; serving starts it again, answering a check does not", () => {
  const health = new EndpointHealth(backoff);
  assert.equal(health.state, "unknown");
  assert.equal(health.waitMs(0), 0);
  assert.equal(health.markFailing(failure, 1000), 50);
  assert.equal(health.state, "failing");
  assert.equal(health.retryAt, 1050);
  assert.equal(health.waitMs(1020), 30);
  assert.equal(health.lastError, failure.message);
  health.markAnswering();
  assert.equal(health.state, "ok");
  assert.equal(health.retryAt, undefined);
  assert.equal(health.markFailing(failure, 0), 100, "the count goes on after a passed check");
  const refused = new RpcEndpointError("http://127.0.0.1:9", "eth_feeHistory", "HTTP 429", undefined, 429, 500);
  assert.equal(health.markFailing(refused, 0), 500, "as long as the endpoint asked");
  assert.equal(health.failuresInARow, 3);
  assert.equal(health.markServing(), true, "it recovered");
  assert.equal(health.failuresInARow, 0);
  assert.equal(health.markServing(), false);
  assert.equal(health.markFailing(failure, 0, "suspect"), 50);
  assert.equal(health.state, "suspect");
});

test("a failure keeps the chain id checked; being set aside does not, whatever the backoff", () => {
  const health = new EndpointHealth(backoff);
  health.recordChainId(1);
  health.markVerified();
  health.markFailing(failure, 0);
  assert.equal(health.verified, true, "the owner decides (the pool unchecks it as it closes the connection)");
  health.markUnverified();
  assert.equal(health.verified, false);
  health.markVerified();
  health.recordChainId(5);
  health.setAside("wrong-chain", new WrongChainError("http://127.0.0.1:9", 1, 5), 0, 600_000);
  assert.deepEqual([health.state, health.verified, health.retryAt, health.reportedChainId], ["wrong-chain", false, 600_000, 5]);
  assert.equal(health.failuresInARow, 1, "not a failure of the backoff's count");
  assert.equal(health.markServing(), true);
});

test("the eth_feeHistory cap only ever goes down, and a backoff it cannot honour is refused", () => {
  const { feeHistoryLimit } = new EndpointHealth(backoff);
  assert.equal(feeHistoryLimit.maxBlocks, Number.POSITIVE_INFINITY);
  feeHistoryLimit.lower(300);
  feeHistoryLimit.lower(1000);
  feeHistoryLimit.lower(0);
  assert.equal(feeHistoryLimit.maxBlocks, 300);
  assert.throws(() => new EndpointHealth({ initialMs: 0, maxMs: 10 }), /a backoff waits a positive time/);
});
