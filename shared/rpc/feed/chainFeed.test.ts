import assert from "node:assert/strict";
import { test } from "node:test";
import { silentLogger } from "../../log/logger.ts";
import { ChainFeed } from "./chainFeed.ts";
import { RpcEndpointError } from "../connection/errors.ts";
import { isTooManyBlocksError } from "./fetchBaseFees.ts";

test("the fixed polling interval follows the block time until blocks are seen, unless given", () => {
  const options = { chainId: 1, rpcUrls: ["http://127.0.0.1:9"], blockTimeMs: 2000, windowBlocks: 500, logger: silentLogger };
  assert.equal(new ChainFeed(options).pollIntervalMs, 2000);
  assert.equal(new ChainFeed({ ...options, pollIntervalMs: 50 }).pollIntervalMs, 50);
});

test("a feed refuses options it cannot honour, saying which", () => {
  const options = { chainId: 1, rpcUrls: ["http://127.0.0.1:9"], blockTimeMs: 2000, windowBlocks: 500, logger: silentLogger };
  assert.throws(() => new ChainFeed({ ...options, windowBlocks: 499 }), /at least 500 blocks/);
  assert.throws(() => new ChainFeed({ ...options, rpcUrls: [] }), /at least one RPC URL/);
  assert.throws(() => new ChainFeed({ ...options, rpcUrls: ["ftp://example.com/abcdef0123456789abcdef"] }), /must start with http\(s\):\/\/ or ws\(s\):\/\/$/);
  assert.throws(() => new ChainFeed({ ...options, chainId: 0 }), /positive integer/);
  assert.throws(() => new ChainFeed({ ...options, backoff: { initialMs: 0 } }), /a backoff waits a positive time/);
});

test("size refusals are told apart from other failures", () => {
  const error = (reason: string, status?: number) => new RpcEndpointError("u", "eth_feeHistory", reason, -32602, status);
  assert.equal(isTooManyBlocksError(error("requested block count 1000 exceeds the maximum of 300 blocks")), true);
  assert.equal(isTooManyBlocksError(error("too many blocks requested")), true);
  assert.equal(isTooManyBlocksError(error("block range too large")), true);
  assert.equal(isTooManyBlocksError(error("HTTP 429 rate limit exceeded", 429)), false);
  assert.equal(isTooManyBlocksError(error("HTTP 500", 500)), false);
  assert.equal(isTooManyBlocksError(error("timed out")), false);
  assert.equal(isTooManyBlocksError(error("header not found")), false);
  assert.equal(isTooManyBlocksError(new Error("exceeds")), false);
});

test("before any data, the report says syncing, with every endpoint as configured (URLs redacted)", () => {
  const chainFeed = new ChainFeed({
    chainId: 10,
    rpcUrls: ["http://127.0.0.1:9/v3/abcdef0123456789abcdef0123456789", "ws://127.0.0.1:9"],
    blockTimeMs: 2000,
    windowBlocks: 500,
    logger: silentLogger,
  });
  assert.deepEqual(chainFeed.report, {
    chainId: 10,
    blocks: [],
    newestBlock: undefined,
    nextBaseFeeWei: undefined,
    nextBlobBaseFeeWei: undefined,
    recentTips: [],
    newDataAt: undefined,
    phase: "syncing",
    endpoints: [
      { url: "http://127.0.0.1:9/…", transport: "http", state: "unknown", active: false },
      { url: "ws://127.0.0.1:9", transport: "ws", state: "unknown", active: false },
    ],
    changed: { blocks: false, health: false },
    anchors: [],
    callCounts: [],
  });
  assert.ok(Object.isFrozen(chainFeed.report));
  assert.ok(Object.isFrozen(chainFeed.report.anchors));
});

test("the feed exposes its report and nothing of its state", () => {
  const names = Object.getOwnPropertyNames(ChainFeed.prototype).filter((name) => name !== "constructor");
  assert.deepEqual(names.sort(), ["chainId", "pollIntervalMs", "report", "start", "stop"]);
});
