import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createRouteMatcher, pathSegments } from "./matchRoute.ts";
import { redactPath } from "./redactPath.ts";
import { ROUTES } from "./routes.ts";

const match = createRouteMatcher(ROUTES);
const nameOf = (target: string) => match(target)?.route.name;

test("the route list: the specification's three endpoints, /networks, costs in money, the history, the outlook, the hourly summaries, the event streams, /alerts, /metrics, the network lists and /healthz, and the key-in-path forms", () => {
  assert.deepEqual(
    ROUTES.map((route) => `${route.auth} ${route.path}`),
    [
      "none /healthz",
      "none /openapi.json",
      "key /networks",
      "key /networks/{chainId}/busyThreshold",
      "key /networks/{chainId}/baseFeePercentile",
      "key /networks/{chainId}/baseFeeHistory",
      "key /networks/{chainId}/blobBusyThreshold",
      "key /networks/{chainId}/blobBaseFeePercentile",
      "key /networks/{chainId}/blobBaseFeeHistory",
      "key /networks/{chainId}/suggestedGasFees",
      "key /networks/{chainId}/costs",
      "key /networks/{chainId}/priceHistory",
      "key /networks/{chainId}/baseFeeStats",
      "key /networks/{chainId}/baseFeeHistory.csv",
      "key /networks/{chainId}/outlook",
      "key /networks/{chainId}/hourlyStats",
      "key /networks/{chainId}/hourlyStats.csv",
      "key /networks/{chainId}/events",
      "key /dashboard/credentials",
      "key /events",
      "key /alerts",
      "key /metrics",
      "none /v1/supportedNetworks",
      "none /v1/supportedChainNames",
      "none /",
      "none /assets/{asset}",
      "key /v3/{apiKey}/networks",
      "key /v3/{apiKey}/networks/{chainId}/busyThreshold",
      "key /v3/{apiKey}/networks/{chainId}/baseFeePercentile",
      "key /v3/{apiKey}/networks/{chainId}/baseFeeHistory",
      "key /v3/{apiKey}/networks/{chainId}/blobBusyThreshold",
      "key /v3/{apiKey}/networks/{chainId}/blobBaseFeePercentile",
      "key /v3/{apiKey}/networks/{chainId}/blobBaseFeeHistory",
      "key /v3/{apiKey}/networks/{chainId}/suggestedGasFees",
      "key /v3/{apiKey}/networks/{chainId}/costs",
      "key /v3/{apiKey}/networks/{chainId}/priceHistory",
      "key /v3/{apiKey}/networks/{chainId}/baseFeeStats",
      "key /v3/{apiKey}/networks/{chainId}/baseFeeHistory.csv",
      "key /v3/{apiKey}/networks/{chainId}/outlook",
      "key /v3/{apiKey}/networks/{chainId}/hourlyStats",
      "key /v3/{apiKey}/networks/{chainId}/hourlyStats.csv",
      "key /v3/{apiKey}/networks/{chainId}/events",
      "key /v3/{apiKey}/dashboard/credentials",
      "key /v3/{apiKey}/events",
      "key /v3/{apiKey}/alerts",
      "key /v3/{apiKey}/metrics",
    ],
  );
  assert.equal(new Set(ROUTES.map((route) => route.name)).size, ROUTES.length);
});

test("paths match with their parameters; the query string is ignored", () => {
  assert.deepEqual(match("/networks/8453/busyThreshold?x=1")?.params, { chainId: "8453" });
  assert.deepEqual(match("/v3/abc/networks/1/baseFeeHistory")?.params, { apiKey: "abc", chainId: "1" });
  assert.equal(nameOf("/healthz?"), "getHealth");
  assert.equal(nameOf("/v3/abc/networks"), "getNetworksWithKeyInPath");
});

test("segments are percent-decoded one by one; malformed encoding is kept as written", () => {
  assert.deepEqual(match("/networks/%31/busyThreshold")?.params, { chainId: "1" });
  assert.equal(nameOf("/%6Eetworks/1/busyThreshold"), "busyThreshold");
  assert.deepEqual(match("/networks/a%2Fb/busyThreshold")?.params, { chainId: "a/b" });
  assert.deepEqual(match("/networks/%E0%A4%A/busyThreshold")?.params, { chainId: "%E0%A4%A" });
  assert.equal(nameOf("/netw%ZZorks"), undefined);
});

test("near misses do not match", () => {
  assert.equal(nameOf("/?token=x"), "getDashboard");
  for (const target of [
    "",
    "*",
    "/assets",
    "/assets/a/b",
    "/networks/",
    "/networks/1",
    "/networks/1/busythreshold",
    "//networks",
    "/healthz/",
    "http://x/healthz",
    "/v3/networks/1/busyThreshold",
  ]) {
    assert.equal(nameOf(target), undefined, target);
  }
  assert.equal(pathSegments("*"), undefined);
});

test("a target asked again gets the same frozen match; past the remembered ones, every match is still right", () => {
  const fresh = createRouteMatcher(ROUTES);
  const first = fresh("/networks/8453/busyThreshold");
  assert.equal(fresh("/networks/8453/busyThreshold"), first);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first?.params));
  assert.equal(fresh("/nowhere"), undefined);
  assert.equal(fresh("/nowhere"), undefined);
  // Far more targets than are remembered (256), asked twice over: each time the right route and parameters.
  for (let round = 0; round < 2; round++) {
    for (let chainId = 1; chainId <= 700; chainId++) {
      assert.deepEqual(fresh(`/networks/${chainId}/baseFeePercentile`)?.params, { chainId: String(chainId) });
      assert.equal(fresh(`/networks/${chainId}/nowhere`), undefined);
    }
  }
  // A long target is matched, not remembered.
  const long = `/networks/${"9".repeat(300)}/busyThreshold`;
  assert.equal(fresh(long)?.route.name, "busyThreshold");
  assert.notEqual(fresh(long), fresh(long));
});

test("a logged path never carries the key of /v3/{apiKey}", () => {
  assert.equal(redactPath("/v3/0123456789abcdef0123456789abcdef/networks/1/busyThreshold?k=v"), "/v3/***/networks/1/busyThreshold");
  assert.equal(redactPath("/networks/1/busyThreshold?key=x"), "/networks/1/busyThreshold");
  assert.equal(redactPath("*"), "<not a path>");
});

test("a target matches the same route with the same parameters whether its path is percent-encoded or not", () => {
  // Targets made of the routes' own words, so that many of them match: the in-place matcher (no "%") is checked
  // against the decoding one by encoding one character of the path.
  const word = fc.constantFrom("networks", "v3", "1", "8453", "busyThreshold", "baseFeeHistory", "events", "healthz", "assets", "a.js", "", "x");
  const target = fc
    .record({ words: fc.array(word, { minLength: 0, maxLength: 6 }), query: fc.option(fc.constantFrom("", "x=1", "a/b")) })
    .map(({ words, query }) => `/${words.join("/")}${query === null ? "" : `?${query}`}`);
  fc.assert(
    fc.property(target, fc.nat(), (plain, at) => {
      const pathEnd = plain.includes("?") ? plain.indexOf("?") : plain.length;
      const encodable = [...plain.slice(0, pathEnd)].flatMap((char, index) => (char === "/" ? [] : [index]));
      fc.pre(encodable.length > 0);
      const index = encodable[at % encodable.length]!;
      const encoded = `${plain.slice(0, index)}%${plain.charCodeAt(index).toString(16).toUpperCase()}${plain.slice(index + 1)}`;
      const expected = match(plain);
      const actual = match(encoded);
      assert.equal(actual?.route.name, expected?.route.name, `${plain} / ${encoded}`);
      assert.deepEqual(actual?.params, expected?.params, `${plain} / ${encoded}`);
    }),
    { numRuns: 2000 },
  );
});
