// The walk back through a feed's rounds, over a feed held in memory here (the integration test costsPastRounds reads a
// real aggregator on a Hardhat chain).
import assert from "node:assert/strict";
import { test } from "node:test";
import type { PastRoundAnswer } from "../core/costs/pastRound.ts";
import type { PricePoint } from "../wire/costs.ts";
import { PAST_ROUNDS_PER_BATCH, walkPastRounds, type PastRoundsWalk } from "./pastPriceRounds.ts";

const NOW = 1_700_000_000;
const PHASE = 3n << 64n;

/** A feed whose rounds 1..latest were written `spacingS` apart, the newest at NOW, each worth 1000 + its number. */
function feed(latest: number, spacingS: number, change: (round: number, answer: PastRoundAnswer) => PastRoundAnswer = (_, answer) => answer) {
  const timeOf = (round: number) => NOW - (latest - round) * spacingS;
  const batches: bigint[][] = [];
  const readBatch = (ids: readonly bigint[]) => {
    batches.push([...ids]);
    return Promise.resolve(
      ids.map((id) => {
        const round = Number(id - PHASE);
        const at = BigInt(timeOf(round));
        return change(round, { round: { roundId: id, answer: BigInt(1000 + round) * 10n ** 8n, startedAt: at, updatedAt: at } });
      }),
    );
  };
  return { batches, readBatch, timeOf, latest: { roundId: PHASE + BigInt(latest), updatedAt: timeOf(latest) } };
}

async function walk(
  source: ReturnType<typeof feed>,
  wanted: PastRoundsWalk["wanted"],
  options: { pauses?: boolean[]; maxRounds?: number; held?: ReadonlyMap<number, string> } = {},
): Promise<{ points: PricePoint[]; outcome: Awaited<ReturnType<typeof walkPastRounds>>; pauses: number }> {
  const points: PricePoint[] = [];
  let pauses = 0;
  const outcome = await walkPastRounds({
    latest: source.latest,
    decimals: 8,
    wanted,
    nowS: NOW,
    ...(options.maxRounds === undefined ? {} : { maxRounds: options.maxRounds }),
    readBatch: source.readBatch,
    keep: (kept) => points.push(...kept),
    ...(options.held === undefined ? {} : { heldAt: (timeS: number) => options.held!.get(timeS) }),
    pause: () => {
      const goOn = options.pauses?.[pauses] ?? true;
      pauses += 1;
      return Promise.resolve(goOn);
    },
  });
  return { points, outcome, pauses };
}

test("rounds are read back in batches to the one in force at the horizon's start, each kept with its price", async () => {
  const source = feed(200, 1800);
  const horizonStartS = NOW - 50 * 3600 - 900; // between two rounds
  const { points, outcome, pauses } = await walk(source, { horizonStartS, afterS: undefined });
  assert.equal(points.length, 101, "rounds 199 down to 99, the one in force at the horizon's start");
  assert.deepEqual(points[0], { time: source.timeOf(199), value: "1199" });
  assert.deepEqual(points.at(-1), { time: source.timeOf(99), value: "1099" });
  assert.ok(source.timeOf(99) <= horizonStartS && source.timeOf(100) > horizonStartS);
  assert.deepEqual(
    source.batches.map((batch) => batch.length),
    [32, 32, 32, 32], // the last batch is read whole: when the horizon falls is known only from the answers
  );
  assert.equal(source.batches[0]![0], PHASE + 199n);
  assert.equal(pauses, 3, "a pause between batches, none after the last");
  assert.deepEqual(
    { ...outcome, end: "" },
    { roundsRead: 101, pointsKept: 101, pointsReplaced: 0, oldestS: source.timeOf(99), end: "", expected: true, retry: false },
  );
  assert.match(outcome.end, /horizon/);
});

test("a burst of rounds adds one point a minute, and the round in force at the horizon's start whatever its spacing", async () => {
  const source = feed(100, 20);
  const { points } = await walk(source, { horizonStartS: NOW - 385, afterS: undefined });
  // Round 80 (400 s before the newest) is in force at the start; kept: every third round from 97, then 80 itself.
  assert.deepEqual(
    points.map((point) => NOW - point.time),
    [60, 120, 180, 240, 300, 360, 400],
  );
});

test("the walk ends at the points held from before, at the phase's first round, and at the bound on rounds", async () => {
  const held = await walk(feed(200, 600), { horizonStartS: 0, afterS: NOW - 10 * 600 });
  assert.equal(held.points.length, 9, "rounds 199..191; round 190 is the one held");
  assert.match(held.outcome.end, /held/);

  const phase = await walk(feed(40, 600), { horizonStartS: 0, afterS: undefined });
  assert.equal(phase.points.length, 39, "rounds 39 down to 1");
  assert.equal(phase.points.at(-1)!.value, "1001");
  assert.match(phase.outcome.end, /phase begins/);
  assert.equal(phase.outcome.expected, true);

  const bounded = await walk(feed(5000, 600), { horizonStartS: 0, afterS: undefined }, { maxRounds: 70 });
  assert.equal(bounded.outcome.roundsRead, 70);
  assert.deepEqual(
    bounded.points.map((point) => point.value),
    Array.from({ length: 70 }, (_, index) => String(5999 - index)),
  );
  assert.match(bounded.outcome.end, /70 rounds/);
});

test("the first round not believed ends the walk, the newer ones of its batch kept, and says why", async () => {
  const source = feed(100, 600, (round, answer) =>
    round === 60 && "round" in answer ? { round: { ...answer.round, updatedAt: answer.round.updatedAt + 1000n } } : answer,
  );
  const { points, outcome } = await walk(source, { horizonStartS: 0, afterS: undefined });
  assert.deepEqual(points.at(-1)!.value, "1061");
  assert.equal(points.length, 39);
  assert.equal(outcome.expected, false);
  assert.equal(outcome.retry, false, "a round not believed is not read again");
  assert.match(outcome.end, /dated after the round that follows/);

  const failing = feed(100, 600, (round, answer) => (round === 90 ? { failed: "execution reverted: No data present" } : answer));
  const failed = await walk(failing, { horizonStartS: 0, afterS: undefined });
  assert.equal(failed.points.at(-1)!.value, "1091");
  assert.match(failed.outcome.end, /No data present/);
});

test("an endpoint that fails the batch ends the walk, and a stopping service ends it between batches", async () => {
  const source = feed(100, 600);
  const broken = await walkPastRounds({
    latest: source.latest,
    decimals: 8,
    wanted: { horizonStartS: 0, afterS: undefined },
    nowS: NOW,
    readBatch: () => Promise.reject(new Error("connect ECONNREFUSED\nmore")),
    keep: () => assert.fail("nothing to keep"),
    pause: () => Promise.resolve(true),
  });
  assert.equal(broken.expected, false);
  assert.equal(broken.retry, true, "a batch the endpoint failed may be read later");
  assert.match(broken.end, /could not be read: connect ECONNREFUSED$/);

  const stopped = await walk(feed(100, 600), { horizonStartS: 0, afterS: undefined }, { pauses: [false] });
  assert.equal(stopped.points.length, PAST_ROUNDS_PER_BATCH);
  assert.match(stopped.outcome.end, /stopped/);
});

test("points held that their rounds read otherwise are replaced, and the walk goes on past them until one agrees", async () => {
  const source = feed(200, 600);
  // Rounds 181..190 were kept at ten times their price (a liar's), round 180 and older as the feed has them.
  const held = new Map<number, string>();
  for (let round = 170; round <= 190; round += 1) held.set(source.timeOf(round), String((1000 + round) * (round > 180 ? 10 : 1)));
  const { points, outcome } = await walk(source, { horizonStartS: 0, afterS: source.timeOf(190) }, { held });
  assert.deepEqual(
    points.map((point) => point.value),
    Array.from({ length: 19 }, (_, index) => String(1199 - index)),
    "rounds 199..191 new, 190..181 replaced",
  );
  assert.equal(outcome.pointsReplaced, 10);
  assert.match(outcome.end, /agree with the feed again/);
  assert.equal(outcome.roundsRead, 20, "round 180, which agrees, ends it");

  const roundAt = (time: number) => 200 - (NOW - time) / 600;
  const agreeing = new Map([...held].map(([time]) => [time, String(1000 + roundAt(time))]));
  const quiet = await walk(feed(200, 600), { horizonStartS: 0, afterS: source.timeOf(190) }, { held: agreeing });
  assert.equal(quiet.points.length, 9, "points held that agree end the walk where they begin");
  assert.equal(quiet.outcome.pointsReplaced, 0);
});
