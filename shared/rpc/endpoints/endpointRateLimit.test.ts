import assert from "node:assert/strict";
import { test } from "node:test";
import { EndpointRateLimit } from "./endpointRateLimit.ts";

/** Sends as soon as the limiter allows, on a fake clock, and returns the send times. */
function sendTimes(limiter: EndpointRateLimit, requests: number, startMs = 0): number[] {
  const times: number[] = [];
  let nowMs = startMs;
  while (times.length < requests) {
    nowMs += limiter.waitMs(nowMs);
    assert.equal(limiter.waitMs(nowMs), 0);
    limiter.record(nowMs);
    times.push(nowMs);
  }
  return times;
}

test("2 requests per second: never a third within any second", () => {
  const times = sendTimes(new EndpointRateLimit(2), 9, 5);
  assert.deepEqual(times, [5, 5, 1005, 1005, 2005, 2005, 3005, 3005, 4005]);
  for (let i = 2; i < times.length; i++) assert.ok(times[i]! - times[i - 2]! >= 1000, `requests ${i - 2} and ${i}`);
});

test("requests spread out by the caller's own pace count from when they were sent", () => {
  const limiter = new EndpointRateLimit(2);
  limiter.record(0);
  assert.equal(limiter.waitMs(400), 0);
  limiter.record(400);
  assert.equal(limiter.waitMs(700), 300);
  assert.equal(limiter.waitMs(1000), 0);
  limiter.record(1000);
  assert.equal(limiter.waitMs(1000), 400, "the one sent at 400 leaves the window at 1400");
});

test("a fractional rate spaces requests evenly; an infinite one never waits", () => {
  assert.deepEqual(sendTimes(new EndpointRateLimit(0.5), 3), [0, 2000, 4000]);
  const unlimited = new EndpointRateLimit(Number.POSITIVE_INFINITY);
  assert.deepEqual(sendTimes(unlimited, 1000).slice(-1), [0]);
  for (const bad of [0, -1, Number.NaN]) assert.throws(() => new EndpointRateLimit(bad), RangeError);
});
