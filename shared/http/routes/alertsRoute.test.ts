import assert from "node:assert/strict";
import { test, type TestContext } from "node:test";
import { callApi } from "../../../test/support/apiClient.ts";
import { scriptedService } from "../../../test/support/scriptedFeed.ts";
import { openSse } from "../../../test/support/sseClient.ts";
import { AlertService } from "../../alerts/alertService.ts";
import type { AlertRule } from "../../core/alerts/alertRule.ts";
import { ApiKeyring } from "../../keys/apiKeyring.ts";
import { silentLogger } from "../../log/logger.ts";
import { type AlertEvent, alertEventSchema, alertsBodySchema } from "../../wire/alerts.ts";
import type { NetworkEvent } from "../../wire/networkEvent.ts";
import { createApiServer } from "../server.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const ETHEREUM = 1;
const BASE = 8453;
const GWEI = 1_000_000_000n;

function ruleOf(id: string, chainId: number, gwei: bigint): AlertRule {
  return {
    id,
    chainId,
    when: "below",
    threshold: { kind: "fixed", wei: gwei * GWEI },
    forBlocks: 1,
    rearmAfterBlocks: 1,
    cooldownMs: 0,
    cooldownGroup: id,
    enabled: true,
  };
}

async function start(t: TestContext) {
  const scripted = scriptedService([
    { chainId: ETHEREUM, name: "Ethereum" },
    { chainId: BASE, name: "Base", blockTimeMs: 2000 },
  ]);
  const alerts = new AlertService({ source: scripted.service, logger: silentLogger });
  alerts.configure(
    [ruleOf("cheap-eth", ETHEREUM, 8n), ruleOf("cheap-base", BASE, 1n)],
    [{ rule: "#3", field: "chainId", message: "6001 is not a followed chain" }],
  );
  const server = createApiServer({
    source: scripted.service,
    alerts,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: silentLogger,
    port: 0,
    rateLimit: { requestsPerSecond: 0, burst: 1 },
  });
  const { url } = await server.listen();
  t.after(async () => {
    alerts.stop();
    await server.close();
  });
  return { scripted, alerts, url };
}

test("GET /alerts answers the rules and their state with a key (401 without), true to the wire schema, also under /v3/{apiKey}", async (t) => {
  const { url, scripted } = await start(t);
  scripted.write(ETHEREUM, 100n, [10n * GWEI]);
  const basic = await callApi(url, "/alerts", KEY);
  assert.equal(basic.status, 200);
  assert.equal(basic.headers.get("content-type"), "application/json; charset=utf-8");
  const body = alertsBodySchema.parse(basic.body);
  assert.deepEqual(
    body.rules.map((rule) => [rule.id, rule.state, rule.paused, rule.threshold]),
    [
      ["cheap-eth", "armed", null, "8"],
      ["cheap-base", "armed", "no data", "1"],
    ],
  );
  assert.deepEqual(body.problems, [{ rule: "#3", field: "chainId", message: "6001 is not a followed chain" }]);
  assert.deepEqual((await callApi(url, `/v3/${KEY}/alerts`)).body, basic.body);
  const refused = await callApi<{ code: string }>(url, "/alerts");
  assert.equal(refused.status, 401);
  assert.equal(refused.body.code, "MISSING_API_KEY");
});

test("right after start, a rule whose condition already holds (as calm does on a calm chain) is armed, not firing with no firing", async (t) => {
  const { url, scripted } = await start(t);
  scripted.write(ETHEREUM, 100n, [5n * GWEI]); // at or below 8 from the first block: learnt silently
  const afterStart = alertsBodySchema.parse((await callApi(url, "/alerts", KEY)).body).rules.find((rule) => rule.id === "cheap-eth")!;
  assert.deepEqual([afterStart.state, afterStart.lastFired], ["armed", null]);
  scripted.write(ETHEREUM, 101n, [10n * GWEI]); // false: the condition may now become true
  scripted.write(ETHEREUM, 102n, [5n * GWEI]); // becomes true: fires
  const fired = alertsBodySchema.parse((await callApi(url, "/alerts", KEY)).body).rules.find((rule) => rule.id === "cheap-eth")!;
  assert.equal(fired.state, "firing");
  assert.equal(fired.lastFired?.block, "102");
});

test("an alert is an `event: alert` on /events and on its chain's stream (not on another chain's), after the block it is about", async (t) => {
  const { url, scripted } = await start(t);
  scripted.write(ETHEREUM, 100n, [10n * GWEI]);
  scripted.write(BASE, 500n, [2n * GWEI]);
  const every = await openSse(`${url}/events`, KEY);
  const ethereum = await openSse(`${url}/networks/${ETHEREUM}/events`, KEY);
  const base = await openSse(`${url}/v3/${KEY}/networks/${BASE}/events`);
  t.after(() => [every, ethereum, base].forEach((client) => client.close()));
  for (const client of [every, ethereum, base]) await client.until((events) => events.some((event) => event.name === "network"), "the full state");

  scripted.write(ETHEREUM, 101n, [7n * GWEI]);
  await every.until((events) => events.some((event) => event.name === "alert"), "the alert on /events");
  await ethereum.until((events) => events.some((event) => event.name === "alert"), "the alert on Ethereum's stream");
  const [event] = every.dataOf<AlertEvent>("alert");
  alertEventSchema.parse(event);
  assert.deepEqual(ethereum.dataOf<AlertEvent>("alert"), [event]);
  assert.equal(event!.ruleId, "cheap-eth");
  assert.equal(event!.block, "101");

  // The stream carries block 101 first, then the alert about it.
  const last = ethereum.events.slice(-2);
  assert.deepEqual(
    last.map((item) => item.name),
    ["network", "alert"],
  );
  assert.equal((JSON.parse(last[0]!.data) as NetworkEvent).status.newestBlock, "101");

  // Base's own alert reaches Base's stream and /events, and Base's stream never got Ethereum's.
  scripted.write(BASE, 501n, [1n * GWEI]);
  await base.until((events) => events.some((item) => item.name === "alert"), "the alert on Base's stream");
  await every.until((events) => events.filter((item) => item.name === "alert").length === 2, "both alerts on /events");
  assert.deepEqual(
    base.dataOf<AlertEvent>("alert").map((item) => item.ruleId),
    ["cheap-base"],
  );
  assert.deepEqual(
    every.dataOf<AlertEvent>("alert").map((item) => item.ruleId),
    ["cheap-eth", "cheap-base"],
  );
  assert.deepEqual(
    ethereum.dataOf<AlertEvent>("alert").map((item) => item.ruleId),
    ["cheap-eth"],
  );
});
