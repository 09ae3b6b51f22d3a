import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiCallError } from "../../renderer/src/live/apiCallError.ts";
import { curlLines, panelKeyOf } from "../../renderer/src/live/panelKey.ts";

const TOKEN = "d".repeat(32);
const KEY = "0123456789abcdef0123456789abcdef";

test("the panel shows the user's key that the service names, never the page's token", () => {
  assert.deepEqual(panelKeyOf(TOKEN, { ok: { apiKey: KEY } }), { kind: "key", apiKey: KEY, from: "service" });
  assert.deepEqual(panelKeyOf(TOKEN, { ok: { apiKey: KEY, apiKeySecret: "s3cret" } }), { kind: "key", apiKey: KEY, apiKeySecret: "s3cret", from: "service" });
  assert.deepEqual(panelKeyOf(TOKEN, { ok: { apiKey: null } }), { kind: "none" });
  assert.deepEqual(panelKeyOf(KEY, { ok: { apiKey: null, askedWithApiKey: true } }), { kind: "key", apiKey: KEY, from: "address" });
});

test("a 401 INVALID_API_KEY from /dashboard/credentials means the page was opened with a user key: that key is shown", () => {
  const refused = new ApiCallError("Invalid API key.", 401, "INVALID_API_KEY");
  assert.deepEqual(panelKeyOf(KEY, { failed: refused }), { kind: "key", apiKey: KEY, from: "address" });
});

test("any other failure shows no key (the commands keep a placeholder), with why", () => {
  assert.deepEqual(panelKeyOf(TOKEN, { failed: new ApiCallError("Too many requests.", 429, "RATE_LIMITED") }), {
    kind: "unavailable",
    message: "Too many requests.",
  });
  assert.deepEqual(panelKeyOf(TOKEN, { failed: new TypeError("Failed to fetch") }), { kind: "unavailable", message: "Failed to fetch" });
});

test("each curl line shows the key masked and copies it whole, with the secret after the colon", () => {
  const [line] = curlLines("http://127.0.0.1:8950", 1, { kind: "key", apiKey: KEY, from: "service" });
  assert.deepEqual(line, {
    name: "busyThreshold",
    shown: 'curl -u "0123…cdef:" http://127.0.0.1:8950/networks/1/busyThreshold',
    copied: `curl -u "${KEY}:" http://127.0.0.1:8950/networks/1/busyThreshold`,
  });
  const withSecret = curlLines("http://127.0.0.1:8950", 8453, { kind: "key", apiKey: KEY, apiKeySecret: "s3cret", from: "service" });
  const events = withSecret.find((candidate) => candidate.name === "events")!;
  assert.equal(events.shown, 'curl -N -u "0123…cdef:••••••" http://127.0.0.1:8950/networks/8453/events');
  assert.equal(events.copied, `curl -N -u "${KEY}:s3cret" http://127.0.0.1:8950/networks/8453/events`);
  for (const candidate of withSecret) assert.ok(!candidate.shown.includes(KEY) && !candidate.shown.includes("s3cret"), candidate.shown);
});

test("without a key to show, the lines carry a placeholder, shown and copied alike", () => {
  for (const key of [{ kind: "none" }, { kind: "loading" }, { kind: "unavailable", message: "x" }] as const) {
    const [line] = curlLines("http://127.0.0.1:8950", 1, key);
    assert.equal(line!.shown, 'curl -u "$GASFEES_KEY:" http://127.0.0.1:8950/networks/1/busyThreshold');
    assert.equal(line!.copied, line!.shown);
  }
});
