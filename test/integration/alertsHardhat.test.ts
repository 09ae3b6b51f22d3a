// Alert rules end to end: the real service (startService, its history in a temporary config folder) following a real
// Hardhat node that replays real mainnet blocks (3 May 2023) with their real fees and timestamps, block by block. The
// alerts are read as a client reads them, on GET /events (a real SSE connection) and GET /alerts, and at real webhook
// receivers; what should fire is computed here, independently, from the replayed fees and the node's own answers.
// Then `npm run serve` itself with a settings file holding a bad rule beside a good one.
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { serveScriptArguments } from "../../scripts/bench/serveProcess.ts";
import { type RunningService, startService } from "../../shared/app/startService.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import type { AlertEvent, AlertsBody } from "../../shared/wire/alerts.ts";
import type { NetworkEvent } from "../../shared/wire/networkEvent.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";
import { recordingLogger, startTestChain } from "../support/feedHarness.ts";
import { expectedGwei, expectedPercentile } from "../support/independentFees.ts";
import { openSse, type SseClient } from "../support/sseClient.ts";
import { startTimedTestChain, type TimedTestChain } from "../support/timedTestChain.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const GWEI = 1_000_000_000n;
/** Blocks 1..900 replay mainnet blocks 17,180,000.. before the service starts; 70 more are replayed live. */
const PRELOADED_BLOCKS = 900;
const LIVE_BLOCKS = 70;
/** Restart the service at the first block from this one (of the live ones) where the cheap rule's condition holds. */
const RESTART_FROM_LIVE_BLOCK = 28;

/** The rules as the settings file holds them (CONTRACT.md, "Alerts"), and two that are refused. */
const CHEAP_GWEI = "73.5";
const SPIKE_GWEI = "78.6";
const RELATIVE = { percentile: 10, windowBlocks: 100 };
const RULES = [
  { id: "cheap", chainId: 1, when: "below", gwei: CHEAP_GWEI, cooldownMinutes: 0 },
  { id: "spike", chainId: 1, when: "above", gwei: SPIKE_GWEI, forBlocks: 3, cooldownMinutes: 0 },
  { id: "spike-quiet", chainId: 1, when: "above", gwei: SPIKE_GWEI, forBlocks: 3, cooldownMinutes: 60 },
  // Fires with cheap's first crossing (before the restart); its hour of cooldown outlives the restart.
  { id: "cheap-quiet", chainId: 1, when: "below", gwei: CHEAP_GWEI, cooldownMinutes: 60 },
  { id: "low-p10", chainId: 1, when: "below", percentile: RELATIVE.percentile, window: `${RELATIVE.windowBlocks} blocks`, cooldownMinutes: 0 },
  { id: "far-away", chainId: 6001, when: "below", gwei: "8" },
  { id: "typo", chainId: 1, when: "below", percentile: 100 },
];

/** One block as the service saw it: its current base fee (the next block's, as the node reports it while it is newest). */
interface Observed {
  readonly block: bigint;
  readonly currentWei: bigint;
  /** The first block a (re)started service saw: its rules learn the chain's state there and fire nothing. */
  readonly firstAfterStart: boolean;
}

/**
 * What a rule of `forBlocks` fires on, by the contract: once its condition held for `forBlocks` blocks in a row since
 * it was armed; armed again once it was false for `forBlocks` blocks in a row; a start learns (a condition true then
 * counts as already told). Written as runs of blocks rather than the engine's steps.
 */
function expectedFirings(observed: readonly Observed[], holds: (seen: Observed) => boolean, forBlocks: number): bigint[] {
  const fired: bigint[] = [];
  let told = false;
  let run: { holds: boolean; length: number } = { holds: false, length: 0 };
  for (const seen of observed) {
    const now = holds(seen);
    if (seen.firstAfterStart) {
      told = now;
      run = { holds: now, length: forBlocks };
      continue;
    }
    run = now === run.holds ? { holds: now, length: run.length + 1 } : { holds: now, length: 1 };
    if (run.length === forBlocks && now && !told) {
      fired.push(seen.block);
      told = true;
    }
    if (run.length === forBlocks && !now) told = false;
  }
  return fired;
}

/** A webhook receiver on an ephemeral port: it answers 200, answers 500, or never answers. */
interface Receiver {
  readonly url: string;
  readonly bodies: string[];
  /** Requests received and not answered (a hanging receiver's). */
  readonly open: () => number;
  close(): Promise<void>;
}

async function startReceiver(behaviour: "ok" | "fail" | "hang"): Promise<Receiver> {
  const bodies: string[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      bodies.push(body);
      if (behaviour === "hang") {
        hanging.add(res);
        res.once("close", () => hanging.delete(res));
      } else {
        res.writeHead(behaviour === "ok" ? 200 : 500).end(behaviour === "ok" ? "ok" : "receiver broken");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/secret-path`,
    bodies,
    open: () => hanging.size,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const networkEvents = (stream: SseClient) => stream.dataOf<NetworkEvent>("network");
const alertEvents = (stream: SseClient) => stream.dataOf<AlertEvent>("alert").filter((event) => !event.ruleId.includes(":"));

describe("alert rules on a replayed mainnet chain", () => {
  let chain: TimedTestChain;
  let dir: string;
  let receivers: { ok: Receiver; fail: Receiver; hang: Receiver };
  /** Every block the services saw, in order. */
  const observed: Observed[] = [];
  let newest: bigint;

  before(async () => {
    chain = await startTimedTestChain(PRELOADED_BLOCKS);
    newest = chain.newestBlock;
    dir = mkdtempSync(join(tmpdir(), "gasfees-alerts-"));
    receivers = { ok: await startReceiver("ok"), fail: await startReceiver("fail"), hang: await startReceiver("hang") };
  });
  after(async () => {
    await Promise.all(Object.values(receivers ?? {}).map((receiver) => receiver.close()));
    await chain?.node.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const plan: ChainPlan = { chainId: 1, name: "Mainnet replay", rpcUrls: [], blockTimeMs: 12_000, pollIntervalMs: 100 };
  const rules = () => {
    const webhookUrls: Record<string, string> = { cheap: receivers.ok.url, spike: receivers.hang.url, "low-p10": receivers.fail.url };
    return RULES.map((rule) => (webhookUrls[rule.id] === undefined ? rule : { ...rule, webhookUrl: webhookUrls[rule.id] }));
  };

  /** The service on the chain, its history in `dir`, and a client on GET /events once the head is followed. */
  async function start(): Promise<{ service: RunningService; stream: SseClient; logger: ReturnType<typeof recordingLogger> }> {
    const logger = recordingLogger();
    const service = await startService(
      {
        host: "127.0.0.1",
        port: 0,
        allowedHosts: [],
        corsOrigins: [],
        rateLimit: { requestsPerSecond: 0, burst: 1 },
        apiKeys: [{ key: KEY }],
        chains: [{ ...plan, rpcUrls: [chain.node.url] }],
        historyFile: join(dir, "history.sqlite"),
        alerts: {
          rules: rules(),
          notifications: { enabled: true, mutedChainIds: [], enterAfterBlocks: 3, enterMarginPercent: 10, calmAfterBlocks: 10, cooldownMinutes: 15 },
        },
        // A receiver that hangs keeps hanging for the whole test; the one answering 500 is retried without long waits.
        webhook: { timeoutMs: 120_000, backoff: { initialMs: 100, maxMs: 100 } },
      },
      logger,
    );
    const stream = await openSse(`${service.url}/events`, KEY);
    assert.equal(stream.status, 200);
    observed.push({ block: newest, currentWei: await currentBaseFee(), firstAfterStart: true });
    await stream.until(
      () => networkEvents(stream).some((event) => event.status.state === "ok" && event.status.newestBlock === String(newest)),
      `the service following block ${newest}`,
    );
    return { service, stream, logger };
  }

  /** The node's current base fee: the next block's, as eth_feeHistory reports it beside the newest block's. */
  async function currentBaseFee(): Promise<bigint> {
    const history = await chain.node.request<{ baseFeePerGas: string[] }>("eth_feeHistory", ["0x1", "latest", []]);
    assert.equal(BigInt(history.baseFeePerGas[0]!), chain.baseFeeOf(newest), "the node holds the replayed fee");
    return BigInt(history.baseFeePerGas[1]!);
  }

  /** Mines the replay's next block (its real fee and timestamp) and waits until the service has published it. */
  async function mineNext(stream: SseClient): Promise<Observed> {
    newest++;
    await chain.node.request("hardhat_setNextBlockBaseFeePerGas", [`0x${chain.baseFeeOf(newest).toString(16)}`]);
    await chain.node.request("evm_mine", [chain.timestampOf(newest)]);
    const seen: Observed = { block: newest, currentWei: await currentBaseFee(), firstAfterStart: false };
    observed.push(seen);
    await stream.until(() => networkEvents(stream).some((event) => event.status.newestBlock === String(newest)), `block ${newest} on GET /events`);
    return seen;
  }

  /** The relative rule's threshold at `block`: the nearest-rank percentile of the replayed fees of its window. */
  const relativeThreshold = (block: bigint) =>
    expectedPercentile(
      Array.from({ length: RELATIVE.windowBlocks }, (_, i) => chain.baseFeeOf(block - BigInt(RELATIVE.windowBlocks) + 1n + BigInt(i))),
      RELATIVE.percentile,
    );
  const conditions: Record<string, { holds: (seen: Observed) => boolean; forBlocks: number; threshold: (block: bigint) => bigint }> = {
    cheap: { holds: (seen) => seen.currentWei <= 735n * (GWEI / 10n), forBlocks: 1, threshold: () => 735n * (GWEI / 10n) },
    spike: { holds: (seen) => seen.currentWei > 786n * (GWEI / 10n), forBlocks: 3, threshold: () => 786n * (GWEI / 10n) },
    "low-p10": { holds: (seen) => seen.currentWei <= relativeThreshold(seen.block), forBlocks: 1, threshold: relativeThreshold },
  };

  test(
    "one alert per crossing per rule, none within the cooldown (one begun before a restart included) nor at a restart, re-armed after forBlocks; webhooks that hang or fail delay nothing",
    { timeout: 300_000 },
    async (t) => {
      const received: AlertEvent[] = [];
      let { service, stream, logger } = await start();
      t.after(async () => {
        stream.close();
        await service.stop();
      });
      const logLines: string[] = [];
      let restarted = false;
      /** The block the service restarted at (its rules learnt the chain's state there). */
      let restartBlock = -1n;
      let heldBackChecked = false;
      let hangingChecked = false;
      for (let live = 1; live <= LIVE_BLOCKS; live++) {
        const seen = await mineNext(stream);
        // A restart on the same config folder while the cheap rule's condition holds: it fires nothing for it.
        if (!restarted && live >= RESTART_FROM_LIVE_BLOCK && conditions.cheap!.holds(seen)) {
          restarted = true;
          await stream.until(() => received.length + alertEvents(stream).length >= alertsSoFar(), "the alerts before the restart").catch(() => {});
          received.push(...alertEvents(stream));
          assert.deepEqual(received.map(alertKey), expectedAlerts().map(expectedKey), "the alerts before the restart");
          logLines.push(...logger.lines);
          const cheapBefore = expectedFirings(observed, conditions.cheap!.holds, 1);
          assert.ok(cheapBefore.length > 0, "the cheap rule (and its quiet twin) fired before the restart");
          stream.close();
          await service.stop();
          restartBlock = seen.block;
          ({ service, stream, logger } = await start());
          const afterRestart = (await callApi<AlertsBody>(service.url, "/alerts", KEY)).body.rules;
          const cheap = afterRestart.find((rule) => rule.id === "cheap")!;
          assert.equal(cheap.state, "firing", "after the restart, the cheap rule learnt that its condition holds");
          assert.equal(cheap.paused, null);
          // The history file kept each rule's last firing: GET /alerts shows it, and the quiet twin's cooldown goes on.
          assert.equal(cheap.lastFired?.block, String(cheapBefore.at(-1)));
          assert.equal(afterRestart.find((rule) => rule.id === "cheap-quiet")!.lastFired?.block, String(cheapBefore[0]));
          assert.equal(afterRestart.find((rule) => rule.id === "spike")!.lastFired, null, "a rule that never fired has no firing from before");
        }
        // The first crossing after the restart: cheap fires (no cooldown), and its quiet twin holds it back for the rest of
        // the hour that began before the restart.
        if (restarted && !heldBackChecked && expectedFirings(observed, conditions.cheap!.holds, 1).some((block) => block > restartBlock)) {
          heldBackChecked = true;
          await stream.until(() => alertEvents(stream).some((event) => event.ruleId === "cheap"), "the cheap alert after the restart");
          const quiet = (await callApi<AlertsBody>(service.url, "/alerts", KEY)).body.rules.find((rule) => rule.id === "cheap-quiet")!;
          assert.equal(quiet.state, "firing");
          assert.notEqual(quiet.lastFired, null);
          const cooledAtMs = Date.parse(quiet.lastFired!.at) + 60 * 60_000;
          assert.equal(quiet.pendingUntil, new Date(cooledAtMs).toISOString(), "the crossing waits for the cooldown from before the restart");
        }
        // The first alert whose webhook hangs: the SSE event is there and the API answers while the receiver still hangs.
        if (!hangingChecked && expectedFirings(observed, conditions.spike!.holds, 3).length > 0) {
          hangingChecked = true;
          await waitFor("the hanging receiver to get its POST", () => (receivers.hang.open() === 1 ? true : undefined));
          await stream.until(() => alertEvents(stream).some((event) => event.ruleId === "spike"), "the spike alert on GET /events");
          const networks = await callApi(service.url, "/networks", KEY);
          assert.equal(networks.status, 200);
          assert.equal(receivers.hang.open(), 1, "the webhook still hangs, and delayed neither the event nor the API");
        }
      }
      assert.ok(restarted, "the replay has a block where the cheap rule holds, to restart at");
      assert.ok(heldBackChecked, "the cheap rule crossed again after the restart, inside its quiet twin's cooldown");
      assert.ok(hangingChecked, "the spike rule fired during the replay");
      // Bounded: the comparison below says what differs when the count is never reached.
      await stream.until(() => received.length + alertEvents(stream).length >= alertsSoFar(), "every alert expected").catch(() => {});
      // One more round trip: an alert past the expected ones would have been written before this answer.
      const status = (await callApi<AlertsBody>(service.url, "/alerts", KEY)).body;
      received.push(...alertEvents(stream));
      logLines.push(...logger.lines);

      // Exactly the crossings computed from the replayed fees, each with its block, fee and threshold.
      const expected = expectedAlerts();
      assert.deepEqual(received.map(alertKey), expected.map(expectedKey));
      const byRule = (ruleId: string) => expected.filter((alert) => alert.ruleId === ruleId).map((alert) => alert.block);
      assert.ok(byRule("cheap").length >= 3, `the cheap rule crossed several times (${byRule("cheap").join(", ")})`);
      assert.ok(byRule("spike").length >= 2, "the spike rule fired, re-armed after 3 blocks below, and fired again");
      assert.ok(byRule("low-p10").length >= 2, "the relative rule crossed its threshold more than once");
      // Within its hour of cooldown, the quiet twin of spike told only the first of spike's crossings, and holds the next.
      assert.deepEqual(byRule("spike-quiet"), byRule("spike").slice(0, 1));
      // Across the restart too: the cheap rule's quiet twin told only its first crossing, from before the restart.
      assert.deepEqual(byRule("cheap-quiet"), byRule("cheap").slice(0, 1));
      assert.ok(byRule("cheap")[0]! < restartBlock && byRule("cheap").some((block) => block > restartBlock));
      const quiet = status.rules.find((rule) => rule.id === "spike-quiet")!;
      assert.equal(quiet.lastFired?.block, String(byRule("spike")[0]));
      assert.notEqual(quiet.pendingUntil, null, "the later crossing is held back by the cooldown");
      const spikeFirings = expectedFirings(observed, conditions.spike!.holds, 3);
      assert.ok(
        spikeFirings[0]! > observed.find((seen) => seen.firstAfterStart && seen.block > BigInt(PRELOADED_BLOCKS))!.block,
        "no spike alert before the restart",
      );

      // The webhooks: the good receiver got exactly the SSE events of its rule as POST bodies; the failing one three tries.
      const cheapEvents = received.filter((event) => event.ruleId === "cheap");
      await waitFor("the cheap rule's POSTs", () => (receivers.ok.bodies.length === cheapEvents.length ? true : undefined));
      assert.deepEqual(
        receivers.ok.bodies.map((body) => JSON.parse(body) as unknown),
        cheapEvents,
      );
      const relativeEvents = received.filter((event) => event.ruleId === "low-p10").length;
      await waitFor("three tries per relative alert at the failing receiver", () => (receivers.fail.bodies.length === 3 * relativeEvents ? true : undefined));
      const relative = (await callApi<AlertsBody>(service.url, "/alerts", KEY)).body.rules.find((rule) => rule.id === "low-p10")!;
      assert.equal(relative.lastWebhook?.ok, false);
      assert.equal(relative.webhook, `http://127.0.0.1:${new URL(receivers.fail.url).port}/…`);
      assert.equal(relative.window, "100 blocks");
      assert.equal(relative.threshold, expectedGwei(relativeThreshold(newest)));
      assert.equal(relative.thresholdBlocks, 100);

      // The refused rules are listed with the field at fault, and logged once per start, one line each.
      assert.deepEqual(
        status.problems.map((problem) => [problem.rule, problem.field]),
        [
          ["far-away", "chainId"],
          ["typo", "percentile"],
        ],
      );
      assert.equal(logLines.filter((line) => line.includes("alert rule far-away: chainId: 6001 is not a followed chain")).length, 2);
      // The headless channel: one log line per alert, naming the webhook by its origin only.
      assert.equal(logLines.filter((line) => / alert (cheap|cheap-quiet|spike|spike-quiet|low-p10) fired: /.test(line)).length, expected.length);
      assert.ok(!logLines.join("").includes("secret-path"), "a webhook's path is never logged");
      await service.stop();
      stream.close();
      await waitFor("the hanging webhook let go once the service stopped", () => (receivers.hang.open() === 0 ? true : undefined));
    },
  );

  /** What the comparison of an alert with the expected ones reads: its rule, block, fee, threshold, side and chain. */
  const alertKey = (event: AlertEvent) => [event.ruleId, event.block, event.baseFee, event.threshold, event.when, event.chainId, event.chainName];
  const expectedKey = ({ ruleId, block, currentWei, thresholdWei, when }: ReturnType<typeof expectedAlerts>[number]) => [
    ruleId,
    String(block),
    expectedGwei(currentWei),
    expectedGwei(thresholdWei),
    when,
    1,
    "Mainnet replay",
  ];

  /** How many of our rules' alerts the blocks observed so far should have fired. */
  function alertsSoFar(): number {
    return expectedAlerts().length;
  }

  /** Every alert the blocks observed should fire, in the order they fire (block, then the rules' order). */
  function expectedAlerts() {
    const alerts: Array<{ ruleId: string; block: bigint; currentWei: bigint; thresholdWei: bigint; when: string }> = [];
    const spikeFirings = expectedFirings(observed, conditions.spike!.holds, 3);
    const cheapFirings = expectedFirings(observed, conditions.cheap!.holds, 1);
    const firings: Record<string, bigint[]> = {
      cheap: cheapFirings,
      spike: spikeFirings,
      "spike-quiet": spikeFirings.slice(0, 1),
      "cheap-quiet": cheapFirings.slice(0, 1),
      "low-p10": expectedFirings(observed, conditions["low-p10"]!.holds, 1),
    };
    for (const seen of observed) {
      // A restart sees its block again, and only learns there.
      if (seen.firstAfterStart) continue;
      for (const [ruleId, blocks] of Object.entries(firings)) {
        if (!blocks.includes(seen.block)) continue;
        // A quiet twin has its twin's condition.
        const condition = conditions[ruleId.replace(/-quiet$/, "")]!;
        alerts.push({
          ruleId,
          block: seen.block,
          currentWei: seen.currentWei,
          thresholdWei: condition.threshold(seen.block),
          when: ruleId.startsWith("spike") ? "above" : "below",
        });
      }
    }
    return alerts;
  }
});

describe("npm run serve with a settings file holding a bad rule beside a good one", () => {
  test("the good rule runs and fires, GET /alerts lists the bad one's problem, and the log names rule and field", { timeout: 120_000 }, async () => {
    const chain = await startTestChain(0);
    const configDir = mkdtempSync(join(tmpdir(), "gasfees-alerts-serve-"));
    let serve: ChildProcessWithoutNullStreams | undefined;
    try {
      for (let i = 0; i < 5; i++) await chain.mineFee(10n * GWEI);
      const configFile = join(configDir, "settings.json");
      writeFileSync(
        configFile,
        JSON.stringify({
          version: 3,
          chains: [{ chainId: 31337, name: "Local chain", rpcUrls: [chain.node.url], blockTimeMs: 1000 }],
          alerts: [
            { id: "far-away", chainId: 6001, when: "below", gwei: "8" },
            { id: "hot", chainId: 31337, when: "above", gwei: "50" },
          ],
        }),
      );
      const child = spawn(process.execPath, [...serveScriptArguments(), "--config", configFile, "--port", "0", "--api-key", KEY], {
        env: { ...process.env, GASFEES_CONFIG_DIR: configDir, GASFEES_PORT: "", GASFEES_LOG_LEVEL: "info", NODE_TEST_CONTEXT: "" },
      });
      serve = child;
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      const url = await waitFor("the listening line", () => /^gasfees listening on (http:\S+)\n/.exec(stdout)?.[1], 60_000).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}; serve's stderr: ${stderr}`);
      });
      const alerts = async () => (await callApi<AlertsBody>(url, "/alerts", KEY)).body;
      await waitFor("the hot rule to follow the chain", async () =>
        (await alerts()).rules.find((rule) => rule.id === "hot")?.paused === null ? true : undefined,
      );

      const body = await alerts();
      assert.deepEqual(
        body.rules.map((rule) => rule.id),
        ["hot", "busy:31337", "calm:31337"],
      );
      assert.equal(body.problems.length, 1);
      assert.equal(body.problems[0]!.rule, "far-away");
      assert.equal(body.problems[0]!.field, "chainId");
      assert.match(body.problems[0]!.message, /^6001 is not a followed chain/);
      assert.match(stderr, /warn {2}alert rule far-away: chainId: 6001 is not a followed chain/);

      // A block at 100 gwei: its next base fee is far above 50 gwei, so the good rule fires, and says so on stderr.
      await chain.mineFee(100n * GWEI);
      await waitFor("the hot rule's alert on stderr", () =>
        /info {2}alert hot fired: Local chain base fee \S+ gwei is above 50 gwei \(hot, block 6\)/.test(stderr) ? true : undefined,
      );
      assert.equal((await alerts()).rules.find((rule) => rule.id === "hot")!.lastFired?.block, "6");
    } finally {
      serve?.kill("SIGTERM");
      await chain.node.stop();
      rmSync(configDir, { recursive: true, force: true });
    }
  });
});
