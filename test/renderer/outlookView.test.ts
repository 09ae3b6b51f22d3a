// The "Wait or pay now" panel's figures and words, against answers that the wire's schemas accept.
import assert from "node:assert/strict";
import { test } from "node:test";
import { outlookMoneyOf, shownValueOf, thresholdOfInput } from "../../renderer/src/outlook/outlookMoney.ts";
import {
  chanceText,
  durationSeconds,
  horizonOf,
  notEnoughWords,
  reliabilityPoints,
  ribbonRows,
  skillWords,
  trackRecordWords,
} from "../../renderer/src/outlook/outlookView.ts";
import { outlookQueryString } from "../../renderer/src/live/outlookRequest.ts";
import { type Costs, costsSchema } from "../../shared/wire/costs.ts";
import { notEnoughHistoryBodySchema, type OutlookBody, outlookBodySchema } from "../../shared/wire/outlook.ts";

/** Ten tenths, each with `forecasts[i]` forecasts whose mean said `said[i]` and of which `happened[i]` came true. */
function reliability(forecasts: number[], said: number[], happened: number[]) {
  return forecasts.map((count, index) => ({
    from: index / 10,
    to: (index + 1) / 10,
    forecasts: count,
    meanProbability: count === 0 ? null : said[index]!,
    observed: count === 0 ? null : happened[index]!,
  }));
}

/** The contract's example answer, for H hours, with the lowest fee's quantiles given; parsed by the wire's schema. */
function outlookBody(hours: number, lowest: { p10: string; p50: string; p90: string }, overrides: Partial<OutlookBody> = {}): OutlookBody {
  return outlookBodySchema.parse({
    chainId: "1",
    at: { block: "21000000", timestamp: 1767225600, baseFee: "15.1" },
    within: `${hours}h`,
    lowest,
    below: { baseFee: "11.3", probability: 0.41 },
    basis: { from: 1762387200, to: 1767225600, hours: 1344, sampledHours: 900, weeks: 8 },
    backtest: {
      forecasts: 4120,
      brier: 0.162,
      brierClimatology: 0.231,
      skill: 0.3,
      reliability: reliability(
        [880, 300, 250, 240, 260, 300, 412, 400, 500, 578],
        [0.04, 0.15, 0.25, 0.35, 0.45, 0.55, 0.66, 0.75, 0.85, 0.96],
        [0.05, 0.14, 0.27, 0.33, 0.46, 0.56, 0.68, 0.73, 0.86, 0.95],
      ),
    },
    ...overrides,
  });
}

/** A chain's costs with a swap of 150,000 gas whose medium tier is `mediumWei` at a next base fee of 15.1 Gwei. */
function costsWith(price: string | null, mediumWei: bigint): Costs {
  const tier = { wei: String(mediumWei), fiat: price === null ? null : "0.00" };
  return costsSchema.parse({
    currency: "USD",
    price: price === null ? null : { value: price, token: "ETH", feed: `0x${"5f".repeat(20)}`, feedChainId: 1, updatedAt: 1767225600 },
    priceProblem: price === null ? "the feed's round is 3 h old, older than its feed allows" : null,
    l1FeeProblem: null,
    basis: { block: "21000000", baseFee: "15.1" },
    actions: [{ id: "swap", name: "swap", gas: "150000", txBytes: 300, low: tier, medium: tier, high: tier, l1FeeWei: "0", operatorFeeWei: "0" }],
  });
}

const GWEI = 1_000_000_000n;
// A swap at 15.1 Gwei base fee and a 1 Gwei tip: 150,000 x 16.1 Gwei = 0.002415 ETH.
const SWAP_MEDIUM_WEI = (150_000n * 161n * GWEI) / 10n;

test("the money: the shown action's medium tier at the price, moved with the base fee; Gwei without an action or a price", () => {
  const money = outlookMoneyOf(costsWith("2000", SWAP_MEDIUM_WEI), "swap");
  assert.equal(money.kind, "money");
  // Now: 0.002415 ETH x $2,000 = $4.83, as /costs rounds it.
  assert.equal(shownValueOf(money, "15.1").short, "$4.83");
  // At 9.8 Gwei: 150,000 x (9.8 + 1) Gwei = 0.00162 ETH = $3.24; the tip stays as it is now.
  assert.equal(shownValueOf(money, "9.8").short, "$3.24");
  assert.equal(shownValueOf(money, "9.8").value, 3.24);
  assert.match(shownValueOf(money, "9.8").exact, /one swap at a base fee of 9\.8 Gwei/);

  const noAction = outlookMoneyOf(costsWith("2000", SWAP_MEDIUM_WEI), undefined);
  assert.deepEqual(noAction, { kind: "gwei", why: undefined });
  assert.equal(shownValueOf(noAction, "15.1").short, "15.1 Gwei");
  assert.equal(shownValueOf(noAction, "1234.56789").short, "1,235 Gwei");

  const noPrice = outlookMoneyOf(costsWith(null, SWAP_MEDIUM_WEI), "swap");
  assert.equal(noPrice.kind, "gwei");
  assert.equal(
    noPrice.kind === "gwei" && noPrice.why,
    "No USD price: the feed's round is 3 h old, older than its feed allows. The outlook is shown as the base fee in Gwei.",
  );
  // Not known yet (costs still on their way) or an action the chain does not have: Gwei, without a reason to say.
  assert.deepEqual(outlookMoneyOf(undefined, "swap"), { kind: "gwei", why: undefined });
  assert.deepEqual(outlookMoneyOf(costsWith("2000", SWAP_MEDIUM_WEI), "bridge"), { kind: "gwei", why: undefined });
});

test("a typed price becomes the outlook's threshold: action=&fiat= in money, below= in Gwei, with what is wrong said", () => {
  const money = outlookMoneyOf(costsWith("2000", SWAP_MEDIUM_WEI), "swap");
  assert.deepEqual(thresholdOfInput(" $1,200.50 ", money), { threshold: { kind: "money", action: "swap", fiat: "1200.50" } });
  assert.deepEqual(thresholdOfInput(".5", money), { threshold: { kind: "money", action: "swap", fiat: "0.5" } });
  // As the service reads an amount: no leading zeros, no lone point, at most 8 decimals.
  assert.deepEqual(thresholdOfInput("007.", money), { threshold: { kind: "money", action: "swap", fiat: "7" } });
  assert.deepEqual(thresholdOfInput("0.000000001", money), { problem: "Write an amount with at most 8 decimals." });
  assert.deepEqual(thresholdOfInput("1.2.3", money), { problem: 'Write an amount in USD, like "1.20".' });
  assert.deepEqual(thresholdOfInput("", money), { threshold: undefined });
  assert.deepEqual(thresholdOfInput("cheap", money), { problem: 'Write an amount in USD, like "1.20".' });
  assert.deepEqual(thresholdOfInput("0", money), { problem: "Write an amount above 0 USD." });

  const gwei = outlookMoneyOf(undefined, undefined);
  assert.deepEqual(thresholdOfInput("8.50", gwei), { threshold: { kind: "gwei", gwei: "8.5" } });
  assert.deepEqual(thresholdOfInput("12 gwei", gwei), { threshold: { kind: "gwei", gwei: "12" } });
  assert.deepEqual(thresholdOfInput("0", gwei), { problem: "Write a fee above 0 Gwei." });
  const wrong = thresholdOfInput("-3", gwei);
  assert.ok("problem" in wrong && wrong.problem.startsWith("The price "), JSON.stringify(wrong));

  assert.equal(outlookQueryString({ withinHours: 6 }), "within=6h");
  assert.equal(outlookQueryString({ withinHours: 6, threshold: { kind: "gwei", gwei: "8.5" } }), "within=6h&below=8.5");
  assert.equal(outlookQueryString({ withinHours: 24, threshold: { kind: "money", action: "swap", fiat: "1.20" } }), "within=24h&action=swap&fiat=1.20");
  assert.equal(outlookQueryString({ withinHours: 1, threshold: { kind: "ratio", ratio: 0.9 } }), "within=1h&belowRatio=0.9");
});

test("the ribbon: a row per horizon answered, shortest first, in the panel's money", () => {
  const answers = new Map([
    [24, outlookBody(24, { p10: "7.5", p50: "9.9", p90: "12.4" })],
    [1, outlookBody(1, { p10: "13.9", p50: "14.8", p90: "15.1" })],
    [6, outlookBody(6, { p10: "9.8", p50: "12.2", p90: "14.9" })],
  ]);
  const gwei = ribbonRows(answers, { kind: "gwei", why: undefined });
  assert.deepEqual(
    gwei.map((row) => [row.hours, row.band, row.p50Value]),
    [
      [1, [13.9, 15.1], 14.8],
      [6, [9.8, 14.9], 12.2],
      [24, [7.5, 12.4], 9.9],
    ],
  );
  const money = ribbonRows(answers, outlookMoneyOf(costsWith("2000", SWAP_MEDIUM_WEI), "swap"));
  // 150,000 x (7.5 + 1) Gwei x $2,000 = $2.55.
  assert.equal(money[2]!.p10.short, "$2.55");
  assert.deepEqual(money[2]!.band, [2.55, 4.02]);
});

test("chances read as whole percents, never as certain", () => {
  assert.equal(chanceText(0.41), "41%");
  assert.equal(chanceText(0.005), "under 1%");
  assert.equal(chanceText(0), "about 0%");
  assert.equal(chanceText(0.996), "over 99%");
  assert.equal(chanceText(1), "about 100%");
});

test("the track record quotes the well-filled tenth nearest 70%, over the hours replayed, with the skill in plain words", () => {
  const body = outlookBody(6, { p10: "9.8", p50: "12.2", p90: "14.9" });
  const words = trackRecordWords(body.backtest, body.basis.hours, 6);
  assert.equal(words.headline, "When it said about 66%, it happened 68% of the time (412 forecasts), over 1,344 hours replayed.");
  assert.equal(words.skill, "30% better than the plain guess, how often it happened in the 28 days before (Brier score 0.162 against 0.231; lower is better).");
  // The weighted mean distance between said and happened: 1.3 points here.
  assert.equal(words.offByPoints, 1.3);
  assert.equal(reliabilityPoints(body.backtest).length, 10);

  // A tenth near 70% with a handful of forecasts is not quoted: the nearest well-filled one is.
  const thin = outlookBody(
    6,
    { p10: "9.8", p50: "12.2", p90: "14.9" },
    {
      backtest: {
        ...body.backtest,
        reliability: reliability([900, 0, 0, 0, 0, 0, 3, 0, 300, 0], [0.03, 0, 0, 0, 0, 0, 0.7, 0, 0.84, 0], [0.04, 0, 0, 0, 0, 0, 0, 0, 0.8, 0]),
      },
    },
  );
  assert.match(trackRecordWords(thin.backtest, 1344, 6).headline, /^When it said about 84%, it happened 80% of the time \(300 forecasts\)/);
  assert.equal(reliabilityPoints(thin.backtest).length, 3, "empty tenths are not drawn");

  assert.equal(
    skillWords({ ...body.backtest, brier: 0.25, brierClimatology: 0.2, skill: -0.25 }),
    "25% worse than the plain guess, how often it happened in the 28 days before (Brier score 0.250 against 0.200; lower is better): take its chances with care.",
  );
  assert.match(skillWords({ ...body.backtest, skill: 0.002 })!, /^No better than the plain guess/);

  const none = trackRecordWords(
    { forecasts: 0, brier: null, brierClimatology: null, skill: null, reliability: reliability(new Array<number>(10).fill(0), [], []) },
    0,
    24,
  );
  assert.equal(none.headline, "No forecast of the lowest fee within 24 h could be checked yet: the replay needs hours whose next 24 h are held.");
  assert.equal(none.skill, undefined);
});

test("not enough history: how much is held, how much is needed and how long until the outlook answers", () => {
  const body = notEnoughHistoryBodySchema.parse({ statusCode: 422, code: "NOT_ENOUGH_HISTORY", message: "not enough history", held: "9d", needed: "14d" });
  assert.deepEqual(notEnoughWords(body.held, body.needed), { held: "9 days", needed: "14 days", toGo: "about 5 days", share: 9 / 14 });
  assert.deepEqual(notEnoughWords("220h", "14d"), { held: "9 days 4 h", needed: "14 days", toGo: "about 4 days 20 h", share: 220 / 336 });
  assert.deepEqual(notEnoughWords("9d 3h", "14d"), { held: "9 days 3 h", needed: "14 days", toGo: "about 4 days 21 h", share: 219 / 336 });
  assert.deepEqual(notEnoughWords("0h", "14d"), { held: "less than an hour", needed: "14 days", toGo: "about 14 days", share: 0 });
  assert.equal(notEnoughWords("13.99d", "14d").toGo, "less than an hour");
  // A duration this page cannot read is shown as the service wrote it, without a guess of the time to go.
  assert.deepEqual(notEnoughWords("nine days", "14d"), { held: "nine days", needed: "14 days", toGo: undefined, share: undefined });
  assert.equal(durationSeconds("2w"), 1_209_600);
  assert.equal(durationSeconds("1h30m"), 5_400);
  assert.equal(durationSeconds("9 days"), undefined);
});

test("a stored horizon is read back as one of those offered, else 6 h", () => {
  assert.equal(horizonOf("12"), 12);
  assert.equal(horizonOf("5"), 6);
  assert.equal(horizonOf(null), 6);
});
