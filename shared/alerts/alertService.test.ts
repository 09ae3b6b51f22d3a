import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { recordingLogger } from "../../test/support/feedHarness.ts";
import { scriptedService } from "../../test/support/scriptedFeed.ts";
import { waitFor } from "../../test/support/waitFor.ts";
import type { AlertRule } from "../core/alerts/alertRule.ts";
import { parseWindowSpec } from "../core/history/duration.ts";
import { HistoryStore } from "../history/historyStore.ts";
import type { FeeSource } from "../service/feeSource.ts";
import { type AlertEvent, alertsBodySchema, type AlertRuleProblem } from "../wire/alerts.ts";
import type { AlertFiringLog } from "../core/alerts/alertFiringLog.ts";
import { AlertService } from "./alertService.ts";
import { WebhookSender } from "./webhookSender.ts";

const ETHEREUM = 1;
const BASE = 8453;
const GWEI = 1_000_000_000n;
const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

/** A user rule as loadAlertRules makes it, defaults filled in: below 8 gwei on Ethereum unless `overrides` say otherwise. */
function ruleOf(overrides: Partial<AlertRule> = {}): AlertRule {
  return {
    id: "cheap-eth",
    chainId: ETHEREUM,
    when: "below",
    threshold: { kind: "fixed", wei: 8n * GWEI },
    forBlocks: 1,
    rearmAfterBlocks: 1,
    cooldownMs: 15 * MINUTE,
    cooldownGroup: overrides.id ?? "cheap-eth",
    enabled: true,
    ...overrides,
  };
}

interface SetupOptions {
  readonly webhooks?: WebhookSender;
  /** Where the rules' last firings are kept (a history store's). */
  readonly firings?: AlertFiringLog;
  /** The clock at the start (default T0). */
  readonly startMs?: number;
  /** The first block written (default 100). */
  readonly firstBlock?: bigint;
}

/** The real alert service on the real FeeService (a scripted feed), with a clock the test moves and every alert kept. */
function setup(t: TestContext, rules: readonly AlertRule[], { webhooks, firings, startMs = T0, firstBlock = 100n }: SetupOptions = {}) {
  const scripted = scriptedService([
    { chainId: ETHEREUM, name: "Ethereum" },
    { chainId: BASE, name: "Base", blockTimeMs: 2000 },
  ]);
  const clock = { nowMs: startMs };
  const logger = recordingLogger();
  const alerts = new AlertService({
    source: scripted.service,
    logger,
    now: () => clock.nowMs,
    ...(webhooks ? { webhooks } : {}),
    ...(firings ? { firings } : {}),
  });
  t.after(() => alerts.stop());
  alerts.configure(rules, []);
  const events: AlertEvent[] = [];
  alerts.subscribe((event) => events.push(event));
  let nextBlock = firstBlock;
  /** Publishes the chain's next block, whose current base fee is `gwei`, at `atMs` (default: the clock as it is). */
  const block = async (gwei: number | bigint, chainId = ETHEREUM) => {
    const wei = typeof gwei === "bigint" ? gwei : BigInt(Math.round(gwei * 1e9));
    scripted.write(chainId, nextBlock++, [wei], { newDataAt: clock.nowMs });
    // The channels are told once the publication has reached every reader: a turn later.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { scripted, clock, logger, alerts, events, block, blockNumber: () => nextBlock - 1n };
}

const alertLines = (lines: readonly string[]) => lines.filter((line) => / alert \S+ fired: /.test(line));

/** A history file in a folder of its own, removed after the test. */
function historyFile(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), "gasfees-alert-firings-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, "history.sqlite");
}

test("a rule fires once on its crossing, and every channel gets the alert: listeners, one log line, the webhook's exact body", async (t) => {
  const received: Array<{ path: string | undefined; contentType: string | undefined; body: string }> = [];
  const receiver = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ path: req.url, contentType: req.headers["content-type"], body });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  t.after(() => new Promise((resolve) => receiver.close(resolve)));
  const port = (receiver.address() as AddressInfo).port;
  const webhooks = new WebhookSender({ logger: recordingLogger() });
  t.after(() => webhooks.stop());
  const webhookUrl = `http://127.0.0.1:${port}/hooks/secret-token`;
  const { events, block, logger, alerts, clock } = setup(t, [ruleOf({ webhookUrl })], { webhooks });

  await block(10); // learns: armed
  await block(9);
  clock.nowMs = T0 + 5000;
  await block(7.9); // the crossing
  await block(7);
  await block(8); // at the threshold: still "below" (at or below), no new crossing
  assert.equal(events.length, 1);
  const expected: AlertEvent = {
    ruleId: "cheap-eth",
    chainId: ETHEREUM,
    chainName: "Ethereum",
    block: "102",
    baseFee: "7.9",
    threshold: "8",
    when: "below",
    firedAt: new Date(T0 + 5000).toISOString(),
    text: "Ethereum base fee 7.9 gwei is below 8 gwei (cheap-eth, block 102)",
    content: "Ethereum base fee 7.9 gwei is below 8 gwei (cheap-eth, block 102)",
  };
  assert.deepEqual(events[0], expected);

  const lines = alertLines(logger.lines);
  assert.equal(lines.length, 1, lines.join(""));
  assert.match(lines[0]!, /info {2}alert cheap-eth fired: Ethereum base fee 7\.9 gwei is below 8 gwei \(cheap-eth, block 102\)/);
  assert.match(lines[0]!, new RegExp(`"webhook":"http://127\\.0\\.0\\.1:${port}/…"`));
  assert.ok(!logger.lines.join("").includes("secret-token"), "the webhook's path is never logged");

  await waitFor("the webhook's POST", () => received.length === 1);
  assert.equal(received[0]!.path, "/hooks/secret-token");
  assert.equal(received[0]!.contentType, "application/json");
  assert.deepEqual(JSON.parse(received[0]!.body), expected);
  await waitFor("the webhook's outcome in the rule's status", () => alerts.status().rules[0]!.lastWebhook !== null);

  const [status] = alerts.status().rules;
  assert.equal(status!.state, "firing");
  assert.deepEqual(status!.lastFired, { at: new Date(T0 + 5000).toISOString(), block: "102", baseFee: "7.9", threshold: "8" });
  assert.equal(status!.lastWebhook!.ok, true);
  assert.equal(status!.webhook, `http://127.0.0.1:${port}/…`);
  assert.equal(received.length, 1, "one crossing, one POST");
});

test("nothing fires for a condition already true when the rule starts, nor for the same block seen again", async (t) => {
  const { events, block, alerts, scripted } = setup(t, [ruleOf()]);
  await block(5); // true at the first observation: firing, silently
  assert.equal(alerts.status().rules[0]!.state, "armed", "learnt silently: armed until it fires");
  await block(4);
  scripted.setPhase(ETHEREUM, "degraded");
  scripted.setPhase(ETHEREUM, "ok");
  assert.deepEqual(events, []);
  await block(9); // re-armed (forBlocks 1)
  await block(7); // a crossing after the re-arm fires
  assert.equal(events.length, 1);
});

test("a chain whose data is degraded fires nothing, and says why in the rule's status; a crossing held back is told once it is ok again", async (t) => {
  const { events, block, alerts, scripted, clock } = setup(t, [ruleOf({ cooldownMs: MINUTE })]);
  await block(20);
  await block(5); // fires at T0
  await block(20); // re-armed
  clock.nowMs = T0 + 10_000;
  await block(5); // a crossing inside the cooldown: held back
  assert.equal(events.length, 1);
  assert.equal(alerts.status().rules[0]!.pendingUntil, new Date(T0 + MINUTE).toISOString());

  clock.nowMs = T0 + 2 * MINUTE;
  scripted.setPhase(ETHEREUM, "degraded");
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(events.length, 1, "the cooldown is over, but the chain's data is stale: nothing is told");
  assert.equal(alerts.status().rules[0]!.paused, "degraded");

  scripted.setPhase(ETHEREUM, "ok");
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(alerts.status().rules[0]!.paused, null);
  assert.equal(events.length, 2, "back to ok with the condition still true: the held-back crossing is told");
  assert.equal(events[1]!.firedAt, new Date(T0 + 2 * MINUTE).toISOString());
});

test("configure keeps the state of a rule whose condition is unchanged, and starts a changed one again (silently)", async (t) => {
  const twoBlocks = ruleOf({ forBlocks: 2, rearmAfterBlocks: 2 });
  const { events, block, alerts } = setup(t, [twoBlocks, ruleOf({ id: "cheap-8", cooldownGroup: "cheap-8" })]);
  await block(10); // both learn: armed
  await block(5); // cheap-eth: 1 of 2; cheap-8 fires
  assert.deepEqual(
    events.map((event) => event.ruleId),
    ["cheap-8"],
  );
  // A new label, webhook-less still, and a longer cooldown: the same condition, so the count of blocks goes on.
  alerts.configure(
    [
      { ...twoBlocks, label: "Cheap ETH", cooldownMs: 30 * MINUTE },
      ruleOf({ id: "cheap-8", cooldownGroup: "cheap-8", threshold: { kind: "fixed", wei: 9n * GWEI } }),
    ],
    [],
  );
  const [kept, changed] = alerts.status().rules;
  assert.equal(kept!.label, "Cheap ETH");
  assert.equal(kept!.state, "armed");
  assert.equal(changed!.state, "armed", "the changed rule learnt the chain's state at once (5 is at or below 9), silently: armed until it fires");
  assert.equal(changed!.lastFired, null, "a changed rule starts afresh");
  await block(5);
  assert.deepEqual(
    events.map((event) => [event.ruleId, event.text]),
    [
      ["cheap-8", "Ethereum base fee 5 gwei is below 8 gwei (cheap-8, block 101)"],
      ["cheap-eth", "Ethereum base fee 5 gwei is below 8 gwei (Cheap ETH, block 102)"],
    ],
  );
});

test("a channel that throws is logged, and neither the other channels nor the feed miss anything", async (t) => {
  const { block, alerts, logger, scripted } = setup(t, [ruleOf({ cooldownMs: 0 })]);
  const after: AlertEvent[] = [];
  alerts.subscribe(() => {
    throw new Error("this listener is broken");
  });
  alerts.subscribe((event) => after.push(event));
  const published: bigint[] = [];
  scripted.service.subscribe((publication) => published.push(publication.snapshot!.newestBlock));
  await block(10);
  await block(5);
  await block(10);
  await block(5);
  assert.deepEqual(
    after.map((event) => event.block),
    ["101", "103"],
  );
  assert.deepEqual(published, [100n, 101n, 102n, 103n]);
  assert.equal(logger.lines.filter((line) => line.includes("an alert listener failed") && line.includes("this listener is broken")).length, 2);
  assert.equal(alertLines(logger.lines).length, 2, "the log line is written all the same");
});

test("a relative rule compares with the percentile of its window (nearest rank) over the chain's history; without one it is paused for no threshold", async (t) => {
  const window = parseWindowSpec("5 blocks")!;
  const rule = ruleOf({ id: "p20", cooldownGroup: "p20", threshold: { kind: "percentile", percentile: 20, window } });

  // A chain with data but no history to compute the percentile over. The service's history holds every block it
  // published, so it never gives this: a source that hides the history stands in for it.
  const hiding = scriptedService([{ chainId: ETHEREUM, name: "Ethereum" }]);
  const withoutHistory: FeeSource = {
    get: (chainId) => hiding.service.get(chainId),
    list: () => hiding.service.list(),
    history: () => undefined,
    outlook: (chainId) => hiding.service.outlook(chainId),
    subscribe: (listener) => hiding.service.subscribe(listener),
  };
  const paused = new AlertService({ source: withoutHistory, logger: recordingLogger(), now: () => T0 });
  t.after(() => paused.stop());
  paused.configure([rule], []);
  hiding.write(ETHEREUM, 100n, [10n * GWEI], { newDataAt: T0 });
  assert.equal(paused.status().rules[0]!.paused, "no threshold");
  assert.equal(paused.status().rules[0]!.threshold, null);

  // The service's own history from here on: it holds every block written.
  const { events, block, alerts } = setup(t, [rule]);
  await block(10); // block 100: the window holds it alone, and 10 is at its p20
  assert.equal(alerts.status().rules[0]!.paused, null);
  assert.equal(alerts.status().rules[0]!.threshold, "10");
  assert.equal(alerts.status().rules[0]!.thresholdBlocks, 1);
  await block(11); // 10, 11: p20 of 2 is sorted[ceil(0.4) - 1] = 10; 11 is above: armed
  assert.equal(alerts.status().rules[0]!.paused, null);
  assert.equal(alerts.status().rules[0]!.threshold, "10");
  assert.equal(alerts.status().rules[0]!.thresholdBlocks, 2);
  assert.equal(alerts.status().rules[0]!.state, "armed");
  for (const gwei of [12, 13, 14, 12]) await block(gwei); // block 105: window 11, 12, 13, 14, 12: p20 = 11
  assert.equal(alerts.status().rules[0]!.threshold, "11");
  assert.equal(alerts.status().rules[0]!.thresholdBlocks, 5);
  assert.equal(events.length, 0);
  await block(11); // block 106: window 12, 13, 14, 12, 11: p20 = 11, and 11 is at it ("below" is at or below)
  assert.equal(events.length, 1);
  assert.equal(events[0]!.threshold, "11");
  assert.equal(events[0]!.text, "Ethereum base fee 11 gwei is at 11 gwei, its p20 over 5 blocks (p20, block 106)");
});

test('a rule with "fee":"blob" compares the next block\'s blob base fee with its threshold or its percentile of the blob base fees; a chain without blobs never fires it', async (t) => {
  const fixed = ruleOf({ id: "blob-high", cooldownGroup: "blob-high", when: "above", fee: "blob", threshold: { kind: "fixed", wei: 1n * GWEI } });
  const relative = ruleOf({
    id: "blob-p20",
    cooldownGroup: "blob-p20",
    fee: "blob",
    threshold: { kind: "percentile", percentile: 20, window: parseWindowSpec("5 blocks")! },
  });
  const onBase = ruleOf({ id: "blob-base", cooldownGroup: "blob-base", chainId: BASE, when: "above", fee: "blob", threshold: { kind: "fixed", wei: 0n } });
  const { scripted, clock, events, alerts } = setup(t, [fixed, relative, onBase]);
  let next = 100n;
  // Each block's base fee is 30 gwei throughout: only the blob base fee moves, so any firing is the blob fee's.
  const blobBlock = async (blobFeeWei: bigint, nextBlobFeeWei: bigint) => {
    scripted.write(ETHEREUM, next++, [30n * GWEI], { newDataAt: clock.nowMs, blobBaseFeesWei: [blobFeeWei], nextBlobBaseFeeWei: nextBlobFeeWei });
    await new Promise((resolve) => setImmediate(resolve));
  };
  await blobBlock(5n, 6n);
  await blobBlock(7n, 8n);
  const ruleStatus = (id: string) => alerts.status().rules.find((rule) => rule.id === id)!;
  assert.equal(ruleStatus("blob-p20").threshold, "0.000000005", "p20 of the blob base fees 5 and 7 wei");
  assert.equal(ruleStatus("blob-p20").fee, "blob");
  assert.equal(ruleStatus("blob-high").state, "armed");
  assert.equal(events.length, 0);
  await blobBlock(9n, 2n * GWEI); // the next block's blob base fee, 2 gwei, is above 1 gwei
  assert.deepEqual(
    events.map((event) => [event.ruleId, event.fee, event.baseFee, event.threshold]),
    [["blob-high", "blob", "2", "1"]],
  );
  assert.equal(events[0]!.text, "Ethereum blob base fee 2 gwei is above 1 gwei (blob-high, block 102)");
  await blobBlock(1n, 4n); // window 5, 7, 9, 1: p20 is 1 wei; the next blob fee, 4 wei, is not at or below it
  assert.equal(ruleStatus("blob-p20").threshold, "0.000000001");
  assert.equal(events.length, 1);
  await blobBlock(3n, 1n); // window 5, 7, 9, 1, 3: p20 is 1; the next, 1 wei, is at it
  assert.deepEqual(events.at(-1)!.ruleId, "blob-p20");
  assert.equal(events.at(-1)!.baseFee, "0.000000001");
  // Base has base fees only: its blob rule (above 0 wei) never fires, whatever its blocks.
  scripted.write(BASE, 1n, [1n * GWEI, 50n * GWEI], { newDataAt: clock.nowMs });
  await new Promise((resolve) => setImmediate(resolve));
  assert.ok(events.every((event) => event.chainId === ETHEREUM));
  assert.equal(ruleStatus("blob-base").state, "armed");
});

test("GET /alerts' body: every rule in the order configured, true to the wire schema; problems listed, and logged once", async (t) => {
  const { alerts, block, logger } = setup(t, []);
  const problems: AlertRuleProblem[] = [
    { rule: "typo", field: "percentile", message: "must be a whole number from 1 to 99 (got 100)" },
    { rule: "#3", field: "(rule)", message: "is 5, not a rule" },
  ];
  const rules = [
    ruleOf({
      id: "spike",
      cooldownGroup: "spike",
      chainId: BASE,
      when: "above",
      threshold: { kind: "percentile", percentile: 95, window: parseWindowSpec("7d")! },
    }),
    ruleOf({ enabled: false, webhookUrl: "https://hooks.slack.com/services/T0/B0/secret" }),
  ];
  alerts.configure(rules, problems);
  alerts.configure(rules, problems);
  await block(5);
  const body = alertsBodySchema.parse(alerts.status());
  assert.deepEqual(
    body.rules.map((rule) => [rule.id, rule.chainName, rule.paused, rule.gwei, rule.percentile, rule.window, rule.webhook]),
    [
      ["spike", "Base", "no data", null, 95, "7d", null],
      ["cheap-eth", "Ethereum", "disabled", "8", null, null, "https://hooks.slack.com/…"],
    ],
  );
  assert.deepEqual(body.problems, problems);
  const problemLines = logger.lines.filter((line) => line.includes("alert rule "));
  assert.equal(problemLines.length, 2, problemLines.join(""));
  assert.match(problemLines[0]!, /warn {2}alert rule typo: percentile: must be a whole number from 1 to 99 \(got 100\)\n$/);
  assert.match(problemLines[1]!, /warn {2}alert rule #3: is 5, not a rule\n$/);
});

test("a restart on the same history file keeps each rule's cooldown and last firing: a crossing inside the cooldown waits for its end", async (t) => {
  const file = historyFile(t);
  const rules = [ruleOf(), ruleOf({ id: "very-cheap", cooldownGroup: "very-cheap", threshold: { kind: "fixed", wei: 1n * GWEI } })];

  const firstStore = HistoryStore.open(file);
  const first = setup(t, rules, { firings: firstStore.alertFirings });
  await first.block(10); // block 100: learns, armed
  await first.block(5); // block 101: fires at T0
  assert.deepEqual(
    first.events.map((event) => [event.ruleId, event.block]),
    [["cheap-eth", "101"]],
  );
  first.alerts.stop();
  firstStore.close();

  // The service starts again a minute later, on the same file, and the chain goes on from block 102.
  const store = HistoryStore.open(file);
  t.after(() => store.close());
  const second = setup(t, rules, { firings: store.alertFirings, startMs: T0 + MINUTE, firstBlock: 102n });
  const statusOf = (id: string) => second.alerts.status().rules.find((rule) => rule.id === id)!;
  assert.deepEqual(statusOf("cheap-eth").lastFired, { at: new Date(T0).toISOString(), block: "101", baseFee: "5", threshold: "8" });
  assert.equal(statusOf("very-cheap").lastFired, null, "a rule that never fired has no firing from before");

  await second.block(10); // block 102: learns, armed
  await second.block(6); // block 103: a crossing one minute after the last delivery, inside the 15-minute cooldown
  assert.deepEqual(
    second.events.map((event) => event.block),
    [],
    "the crossing is held back by the cooldown from before the restart",
  );
  assert.equal(statusOf("cheap-eth").state, "firing");
  assert.equal(statusOf("cheap-eth").pendingUntil, new Date(T0 + 15 * MINUTE).toISOString());
  assert.equal(statusOf("cheap-eth").lastFired?.block, "101");

  second.clock.nowMs = T0 + 15 * MINUTE;
  await second.block(6); // block 104: the cooldown is over and the condition still holds: told now
  assert.deepEqual(
    second.events.map((event) => [event.ruleId, event.block, event.firedAt]),
    [["cheap-eth", "104", new Date(T0 + 15 * MINUTE).toISOString()]],
  );
  assert.deepEqual(statusOf("cheap-eth").lastFired, { at: new Date(T0 + 15 * MINUTE).toISOString(), block: "104", baseFee: "6", threshold: "8" });
  assert.deepEqual(store.alertFirings.load(), [
    { ruleId: "cheap-eth", cooldownGroup: "cheap-eth", atMs: T0 + 15 * MINUTE, block: 104n, baseFeeWei: 6n * GWEI, thresholdWei: 8n * GWEI },
  ]);
});

test("a history file that cannot be read or written is logged, and the alerts go out all the same", async (t) => {
  const store = HistoryStore.open(historyFile(t));
  const { events, block, logger } = setup(t, [ruleOf({ cooldownMs: 0 })], { firings: store.alertFirings });
  store.close(); // from here on, each firing fails to be kept
  await block(10);
  await block(5);
  assert.deepEqual(
    events.map((event) => event.block),
    ["101"],
  );
  assert.equal(alertLines(logger.lines).length, 1, "the log line is written all the same");
  const notKept = logger.lines.filter((line) => line.includes("the alert's firing could not be kept") && line.includes("is closed: open it again"));
  assert.equal(notKept.length, 1, logger.lines.join(""));

  // A log that cannot be read at start: the rules start without their firings, and fire.
  const unread = setup(t, [ruleOf({ cooldownMs: 0 })], { firings: store.alertFirings });
  assert.equal(unread.logger.lines.filter((line) => line.includes("the alert rules' last firings could not be read")).length, 1, unread.logger.lines.join(""));
  await unread.block(10);
  await unread.block(5);
  assert.equal(unread.events.length, 1);
});
