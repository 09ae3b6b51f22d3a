import assert from "node:assert/strict";
import { test } from "node:test";
import { EMPTY_ALERTS, FIRED_KEPT, withAlertsState, withFiredAlert } from "../../renderer/src/live/alertsFeed.ts";
import { AlertsRefresh } from "../../renderer/src/live/alertsRefresh.ts";
import type { AlertEvent } from "../../shared/wire/alerts.ts";
import { alertsBody } from "../support/alertFixtures.ts";

/** An ask the test answers when it likes. */
function controlledAsks(): { asks: number; answer: () => void; ask: () => Promise<void>; waitForAsks: (count: number) => Promise<void> } {
  const pending: Array<() => void> = [];
  const state = {
    asks: 0,
    answer: () => pending.shift()?.(),
    ask: () => {
      state.asks++;
      return new Promise<void>((resolve) => pending.push(resolve));
    },
    waitForAsks: async (count: number) => {
      const started = Date.now();
      while (state.asks < count) {
        if (Date.now() - started > 15_000) throw new Error(`timed out waiting for ask ${count} (${state.asks} so far)`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };
  return state;
}

test("an ask at once while one is in flight is made right after it, and many at once make one more", async () => {
  const asks = controlledAsks();
  const refresh = new AlertsRefresh(asks.ask, 60_000);
  refresh.now();
  refresh.now();
  refresh.now();
  assert.equal(asks.asks, 1);
  asks.answer();
  await asks.waitForAsks(2);
  asks.answer();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(asks.asks, 2);
  refresh.stop();
});

test("blocks arriving ask again once per gap however many arrive, and nothing is asked after stop", async () => {
  const asks = controlledAsks();
  const refresh = new AlertsRefresh(asks.ask, 50);
  for (let block = 0; block < 20; block++) refresh.soon();
  await asks.waitForAsks(1);
  // More blocks while the first ask is in flight: one ask after it, not one per block.
  for (let block = 0; block < 20; block++) refresh.soon();
  asks.answer();
  await asks.waitForAsks(2);
  asks.answer();
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.equal(asks.asks, 2);
  refresh.soon();
  refresh.stop();
  refresh.now();
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.equal(asks.asks, 2);
});

test("the page keeps the newest fired alerts, numbered in arrival order, and the rules' state apart from them", () => {
  const event = (block: number): AlertEvent => ({
    ruleId: "cheap",
    chainId: 1,
    chainName: "Ethereum",
    block: String(block),
    baseFee: "7.9",
    threshold: "8",
    when: "below",
    firedAt: "2026-11-23T07:00:00.000Z",
    text: "Ethereum base fee 7.9 Gwei is below 8 Gwei",
    content: "Ethereum base fee 7.9 Gwei is below 8 Gwei",
  });
  let feed = EMPTY_ALERTS;
  for (let block = 1; block <= FIRED_KEPT + 2; block++) feed = withFiredAlert(feed, event(block), block * 1000);
  assert.deepEqual(
    feed.fired.map((fired) => [fired.seq, fired.event.block]),
    [3, 4, 5, 6].map((seq) => [seq, String(seq)]),
  );
  const known = withAlertsState(feed, { kind: "known", body: alertsBody([]) });
  assert.equal(known.fired, feed.fired);
  assert.equal(known.state.kind, "known");
});
