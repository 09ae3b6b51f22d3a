import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { alertLinesOf, alertPlateTops, MAX_AXIS_WIDENING, thresholdsInView } from "../../renderer/src/live/chartAlertLines.ts";
import { alertsBody, ruleStatus } from "../support/alertFixtures.ts";

test("the chart draws the chain's enabled rules of the user's own that have a threshold, lowest first, labelled short", () => {
  const body = alertsBody([
    ruleStatus({ id: "cheap", gwei: "8", threshold: "8", label: "Cheap ETH" }),
    ruleStatus({ id: "spike", when: "above", gwei: null, percentile: 95, window: "7d", threshold: "61.234567", state: "firing" }),
    ruleStatus({ id: "off", enabled: false, paused: "disabled" }),
    ruleStatus({ id: "no-window-yet", gwei: null, percentile: 20, window: "24h", threshold: null, paused: "no threshold" }),
    ruleStatus({ id: "other-chain", chainId: 8453 }),
    ruleStatus({ id: "busy:1", builtIn: "busy", when: "above", gwei: null, percentile: 90, window: "24h", threshold: "40" }),
  ]);
  const lines = alertLinesOf(body, 1);
  assert.deepEqual(
    lines.map(({ ruleId, text, threshold }) => ({ ruleId, text, threshold })),
    [
      { ruleId: "cheap", text: "alert: below 8", threshold: "8" },
      { ruleId: "spike", text: "alert: above p95 (61.23)", threshold: "61.234567" },
    ],
  );
  assert.equal(lines[0]!.title, "Cheap ETH: below 8 Gwei, now 8 Gwei (armed)");
  assert.equal(lines[1]!.title, "spike: above the 7 d p95, now 61.234567 Gwei (firing)");
  assert.deepEqual(alertLinesOf(undefined, 1), []);
});

test("a threshold widens the fee axis while the fees keep a third of it; one further out does not", () => {
  // Fees from 40 to 60: a span of 20, so the axis may reach a span of 60.
  assert.deepEqual(thresholdsInView(40, 60, [8]), [8]);
  assert.deepEqual(thresholdsInView(40, 60, [100]), [100]);
  assert.deepEqual(thresholdsInView(40, 60, [101]), []);
  assert.deepEqual(thresholdsInView(40, 60, [50]), [50]);
  // The nearest first: the far one no longer fits once the near one widened the axis.
  assert.deepEqual(thresholdsInView(40, 60, [0, 95]), [95]);
  assert.deepEqual(thresholdsInView(40, 60, [30, 0, 1000]), [30, 0]);
  // Fees that did not move still leave room for a threshold close by.
  assert.deepEqual(thresholdsInView(50, 50, [50.5, 60]), [50.5]);
  assert.equal(MAX_AXIS_WIDENING, 3);
});

test("each plate sits just above its line, stacked above the plate under it when the lines are close, and inside the plot at the edges", () => {
  const height = 16;
  // Lines at y 200 and 190 (10 px apart): the lower one's plate above it, the upper one's above that plate.
  assert.deepEqual(
    alertPlateTops(
      [
        { y: 190, edge: undefined },
        { y: 200, edge: undefined },
      ],
      10,
      300,
      height,
    ),
    [166, 183],
  );
  // Far apart: both above their lines.
  assert.deepEqual(
    alertPlateTops(
      [
        { y: 100, edge: undefined },
        { y: 200, edge: undefined },
      ],
      10,
      300,
      height,
    ),
    [83, 183],
  );
  // Beyond the edges: inside the plot, at the top and at the bottom.
  assert.deepEqual(
    alertPlateTops(
      [
        { y: 10, edge: "top" },
        { y: 300, edge: "bottom" },
      ],
      10,
      300,
      height,
    ),
    [11, 283],
  );
  // Close to the top: stacked down from it instead.
  assert.deepEqual(
    alertPlateTops(
      [
        { y: 20, edge: undefined },
        { y: 24, edge: undefined },
      ],
      10,
      300,
      height,
    ),
    [11, 28],
  );
});

test("no two plates overlap while the plot has room for them all, wherever the lines are", () => {
  const height = 16;
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.record({ y: fc.double({ min: 10, max: 300, noNaN: true }), edge: fc.constant(undefined) }),
          fc.constantFrom({ y: 10, edge: "top" as const }, { y: 300, edge: "bottom" as const }),
        ),
        { minLength: 1, maxLength: 8 },
      ),
      (placed) => {
        const tops = alertPlateTops(placed, 10, 300, height).sort((a, b) => a - b);
        for (const plateTop of tops) assert.ok(plateTop >= 10 && plateTop + height <= 300, `${plateTop} inside the plot`);
        for (let i = 1; i < tops.length; i++) assert.ok(tops[i]! >= tops[i - 1]! + height, `plates at ${tops[i - 1]} and ${tops[i]} overlap`);
      },
    ),
  );
});
