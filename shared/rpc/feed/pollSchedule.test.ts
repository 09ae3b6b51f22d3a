import assert from "node:assert/strict";
import { test } from "node:test";
import { PollSchedule, pollIntervalFor, type PollReason } from "./pollSchedule.ts";

// The schedule is pure: these tests play chains and endpoints against it on a clock of their own (epoch ms that they
// move themselves), so that "how late" and "how often" are exact and nothing here waits for real time.

/** A block as an endpoint shows it: its timestamp (unix s) and when it appears there (epoch ms). */
interface Block {
  readonly timestamp: number;
  readonly appearsAt: number;
}

const T0 = 1_700_000_000_000;

/** Blocks in slots of `slotMs` from T0, stamped with their slot's start, each appearing `delayMs(k)` after it. */
function slots(count: number, slotMs: number, delayMs: (k: number) => number): Block[] {
  return Array.from({ length: count }, (_, k) => ({ timestamp: (T0 + k * slotMs) / 1000, appearsAt: T0 + k * slotMs + delayMs(k) }));
}

/** A deterministic pseudo-random sequence in [0, 1). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}

interface Poll {
  readonly sentAt: number;
  readonly reason: PollReason | undefined;
  readonly newest: number;
}

interface Run {
  readonly polls: readonly Poll[];
  /** Per block: when a poll's answer first had it (NaN: never). */
  readonly foundAt: readonly number[];
  readonly schedule: PollSchedule;
}

/**
 * Polls `blocks` as the feed would, from `startAt` to `endAt`: each poll is answered `roundTripMs` after it is sent,
 * with the newest block that had appeared halfway; the next is sent when the schedule says (or as soon as the answer
 * is in). `endpointAt` names the endpoint polled at each moment.
 */
function play(
  blocks: readonly Block[],
  options: {
    assumedBlockTimeMs: number;
    fixedIntervalMs?: number;
    startAt?: number;
    endAt?: number;
    roundTripMs?: number;
    endpointAt?: (at: number) => string;
    schedule?: PollSchedule;
  },
): Run {
  const schedule =
    options.schedule ??
    new PollSchedule({
      assumedBlockTimeMs: options.assumedBlockTimeMs,
      ...(options.fixedIntervalMs === undefined ? {} : { fixedIntervalMs: options.fixedIntervalMs }),
    });
  const roundTripMs = options.roundTripMs ?? 2;
  const endAt = options.endAt ?? blocks[blocks.length - 1]!.appearsAt + 3 * options.assumedBlockTimeMs;
  const foundAt = blocks.map(() => Number.NaN);
  const polls: Poll[] = [];
  let sentAt = options.startAt ?? blocks[0]!.appearsAt + 1;
  let reason: PollReason | undefined;
  while (sentAt < endAt) {
    let newest = -1;
    while (newest + 1 < blocks.length && blocks[newest + 1]!.appearsAt <= sentAt + roundTripMs / 2) newest++;
    const answeredAt = sentAt + roundTripMs;
    for (let block = 0; block <= newest; block++) if (Number.isNaN(foundAt[block])) foundAt[block] = answeredAt;
    polls.push({ sentAt, reason, newest });
    const header = newest < 0 ? undefined : { block: BigInt(newest), timestamp: blocks[newest]!.timestamp };
    schedule.record({ endpoint: options.endpointAt?.(sentAt) ?? "https://rpc.example", sentAt, answeredAt, header });
    const next = schedule.next();
    reason = next.reason;
    sentAt = Math.max(next.at, answeredAt);
  }
  return { polls, foundAt, schedule };
}

/** Nearest rank. */
function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((q / 100) * sorted.length) - 1)]!;
}

/** Lags of blocks `from`.. (as a share of the block time), and polls per block over the same stretch. */
function measure(run: Run, blocks: readonly Block[], from: number, blockTimeMs: number): { median: number; p95: number; pollsPerBlock: number } {
  const measured = blocks.slice(from);
  const lags = measured.map((block, i) => (run.foundAt[from + i]! - block.appearsAt) / blockTimeMs);
  assert.ok(
    lags.every((lag) => Number.isFinite(lag) && lag >= 0),
    "every block is found",
  );
  const start = measured[0]!.appearsAt - blockTimeMs / 2;
  const end = measured[measured.length - 1]!.appearsAt + blockTimeMs / 2;
  const polls = run.polls.filter((poll) => poll.sentAt >= start && poll.sentAt < end).length;
  return { median: percentile(lags, 50), p95: percentile(lags, 95), pollsPerBlock: polls / measured.length };
}

/** The most polls sent within any window of `windowMs`, and the shortest gap between two polls. */
function density(run: Run, windowMs: number, from = 0): { mostInWindow: number; shortestGapMs: number } {
  const sent = run.polls.map((poll) => poll.sentAt).filter((at) => at >= from);
  let mostInWindow = 0;
  let shortestGapMs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < sent.length; i++) {
    let inWindow = 0;
    for (let j = i; j < sent.length && sent[j]! < sent[i]! + windowMs; j++) inWindow++;
    mostInWindow = Math.max(mostInWindow, inWindow);
    if (i > 0) shortestGapMs = Math.min(shortestGapMs, sent[i]! - sent[i - 1]!);
  }
  return { mostInWindow, shortestGapMs };
}

test("the fixed polling interval is one block time, not under a second nor over 12 s", () => {
  assert.equal(pollIntervalFor(250), 1000);
  assert.equal(pollIntervalFor(2000), 2000);
  assert.equal(pollIntervalFor(12_000), 12_000);
  assert.equal(pollIntervalFor(60_000), 12_000);
});

test("a schedule told its interval polls on it, whatever the blocks say", () => {
  const blocks = slots(40, 2000, () => 150);
  const run = play(blocks, { assumedBlockTimeMs: 2000, fixedIntervalMs: 300 });
  const gaps = run.polls.slice(1).map((poll, i) => poll.sentAt - run.polls[i]!.sentAt);
  assert.ok(
    gaps.every((gap) => gap === 300),
    `gaps ${[...new Set(gaps)].join(", ")}`,
  );
  assert.ok(run.polls.slice(1).every((poll) => poll.reason === "fixed"));
  assert.equal(run.schedule.fixedIntervalMs, 300);
});

test("until the chain's blocks tell its rhythm, polls come once per assumed block time", () => {
  const schedule = new PollSchedule({ assumedBlockTimeMs: 12_000 });
  schedule.record({ endpoint: "e", sentAt: T0, answeredAt: T0 + 5, header: { block: 10n, timestamp: T0 / 1000 - 3 } });
  assert.deepEqual(schedule.next(), { at: T0 + 12_000, reason: "fixed" });
  assert.equal(schedule.blockTimeMs, 12_000);
});

test("a chain given no block time learns its 2 s slots from its blocks and is polled when each block is due: lag and requests within the goals", () => {
  // Assumed 12 s (what a chain without a configured block time gets); blocks every 2 s, 150 ms after their slot.
  const blocks = slots(200, 2000, () => 150);
  const run = play(blocks, { assumedBlockTimeMs: 12_000, roundTripMs: 40 });
  assert.equal(run.schedule.blockTimeMs, 2000);
  const { median, p95, pollsPerBlock } = measure(run, blocks, 30, 2000);
  assert.ok(median < 0.15, `median lag ${median}`);
  assert.ok(p95 < 0.35, `p95 lag ${p95}`);
  assert.ok(pollsPerBlock <= 1.2, `${pollsPerBlock} polls per block`);
  assert.ok(run.polls.filter((poll) => poll.reason === "due").length > 150, "polls are timed by the blocks, not fixed");
});

test("jittered slots (each block 0-25% of the block time after its slot): lag and requests within the goals", () => {
  const next = random(7);
  const blocks = slots(300, 2000, () => next() * 500);
  const { median, p95, pollsPerBlock } = measure(play(blocks, { assumedBlockTimeMs: 2000 }), blocks, 30, 2000);
  assert.ok(median < 0.15, `median lag ${median}`);
  assert.ok(p95 < 0.35, `p95 lag ${p95}`);
  assert.ok(pollsPerBlock <= 1.2, `${pollsPerBlock} polls per block`);
});

test("Ethereum-like: 12 s slots, blocks 0.8-3.8 s late with a long tail, one slot in a hundred missed", () => {
  const next = random(3);
  const blocks: Block[] = [];
  for (let slot = 0; blocks.length < 200; slot++) {
    if (next() < 0.01) continue;
    blocks.push({ timestamp: (T0 + slot * 12_000) / 1000, appearsAt: T0 + slot * 12_000 + 800 + 3000 * next() ** 3 });
  }
  const { median, p95, pollsPerBlock } = measure(play(blocks, { assumedBlockTimeMs: 12_000, roundTripMs: 120 }), blocks, 30, 12_000);
  assert.ok(median < 0.15, `median lag ${median}`);
  assert.ok(p95 < 0.35, `p95 lag ${p95}`);
  assert.ok(pollsPerBlock <= 1.2, `${pollsPerBlock} polls per block`);
});

test("blocks under a second apart at irregular times (Arbitrum) are polled on a fixed 1 s interval", () => {
  const next = random(4);
  let appearsAt = T0;
  const blocks = Array.from({ length: 2000 }, () => {
    appearsAt += 50 + next() * 400;
    return { timestamp: Math.floor(appearsAt / 1000), appearsAt };
  });
  const run = play(blocks, { assumedBlockTimeMs: 250 });
  const late = run.polls.slice(20);
  assert.ok(
    late.every((poll) => poll.reason === "fixed"),
    "never timed by the timestamps",
  );
  const gaps = late.slice(1).map((poll, i) => poll.sentAt - late[i]!.sentAt);
  assert.ok(
    gaps.every((gap) => gap === 1000),
    `gaps ${[...new Set(gaps)].join(", ")}`,
  );
});

test("blocks at random intervals (no slots: ±60% around 2 s) fall back to a fixed interval of the block time they average", () => {
  const next = random(9);
  let appearsAt = T0;
  const blocks = Array.from({ length: 300 }, () => {
    appearsAt += 2000 * (0.4 + 1.2 * next());
    return { timestamp: Math.floor(appearsAt / 1000), appearsAt };
  });
  const run = play(blocks, { assumedBlockTimeMs: 2000 });
  const late = run.polls.filter((poll) => poll.sentAt > blocks[50]!.appearsAt);
  assert.ok(late.filter((poll) => poll.reason === "fixed").length > 0.9 * late.length, "mostly on a fixed interval");
  assert.ok(Math.abs(run.schedule.fixedIntervalMs - 2000) < 300, `interval ${run.schedule.fixedIntervalMs}`);
});

test("a node stamping blocks at another pace than the clock (a second apart, mined every 300 ms) is polled on a fixed interval", () => {
  // What a local node does after a burst of blocks: each new timestamp is the previous one plus a second.
  const blocks = Array.from({ length: 300 }, (_, k) => ({ timestamp: T0 / 1000 + 600 + k, appearsAt: T0 + k * 300 }));
  const run = play(blocks, { assumedBlockTimeMs: 1000 });
  const late = run.polls.filter((poll) => poll.sentAt > blocks[40]!.appearsAt);
  assert.ok(
    late.every((poll) => poll.reason === "fixed"),
    "never timed by the timestamps",
  );
  assert.equal(run.schedule.fixedIntervalMs, 1000);
});

test("never more than two polls within a block time, never two closer than a sixteenth of one, whatever the endpoint does", () => {
  const next = random(11);
  const cases: Array<{ name: string; blocks: Block[]; endAt?: number }> = [
    { name: "fixed slots", blocks: slots(150, 2000, () => 150) },
    { name: "jittered slots", blocks: slots(150, 2000, () => next() * 1900) },
    { name: "an endpoint 5 s behind", blocks: slots(150, 2000, () => 5000 + next() * 300) },
    { name: "a chain that stops", blocks: slots(60, 2000, () => 150), endAt: T0 + 400 * 2000 },
    { name: "blocks now early, now late", blocks: slots(150, 2000, (k) => (k % 10 < 5 ? 100 : 1700)) },
  ];
  for (const { name, blocks, endAt } of cases) {
    const run = play(blocks, { assumedBlockTimeMs: 2000, ...(endAt === undefined ? {} : { endAt }) });
    const { mostInWindow, shortestGapMs } = density(run, 2000);
    assert.ok(mostInWindow <= 2, `${name}: ${mostInWindow} polls within one block time`);
    assert.ok(shortestGapMs >= 2000 / 16, `${name}: polls ${shortestGapMs} ms apart`);
  }
});

test("while a chain has stopped (or its endpoint is stuck at one block), it is polled once per block time", () => {
  const blocks = slots(60, 2000, () => 150);
  const stoppedAt = blocks[59]!.appearsAt + 10 * 2000;
  const run = play(blocks, { assumedBlockTimeMs: 2000, endAt: stoppedAt + 100 * 2000 });
  const during = run.polls.filter((poll) => poll.sentAt >= stoppedAt);
  assert.ok(during.length >= 99 && during.length <= 101, `${during.length} polls in 100 block times`);
  assert.ok(during.every((poll) => poll.reason === "late"));
});

test("a block stamped 10 s ahead (a producer whose clock runs fast) does not stall polling: the delay follows at once", () => {
  const blocks = slots(41, 2000, () => 150);
  const ahead = { timestamp: blocks[40]!.timestamp + 10, appearsAt: blocks[40]!.appearsAt };
  const schedule = new PollSchedule({ assumedBlockTimeMs: 2000 });
  const run = play([...blocks.slice(0, 40), ahead], { assumedBlockTimeMs: 2000, schedule, endAt: ahead.appearsAt + 2100 });
  const found = run.polls.find((poll) => poll.newest === 40)!;
  assert.ok(found, "block 40 found");
  const next = run.polls[run.polls.indexOf(found) + 1];
  assert.ok(next === undefined || next.sentAt - found.sentAt <= 2 * 2000);
  assert.ok(schedule.next().at - found.sentAt <= 2 * 2000, `next poll ${schedule.next().at - found.sentAt} ms after`);
});

test("an endpoint that lagged half a minute and caught up is polled at least every two block times, and its delay comes back", () => {
  // Blocks appear 30 s after their slot until block 60; then the endpoint catches up: what it missed comes at once.
  const lagging = slots(60, 2000, () => 30_000);
  const caughtUpAt = lagging[59]!.appearsAt + 1;
  const caughtUp = slots(160, 2000, () => 150)
    .slice(60)
    .map((block) => ({ ...block, appearsAt: Math.max(block.appearsAt, caughtUpAt) }));
  const blocks = [...lagging, ...caughtUp];
  const run = play(blocks, { assumedBlockTimeMs: 2000 });
  const after = run.polls.filter((poll) => poll.sentAt > caughtUp[0]!.appearsAt);
  const gaps = after.slice(1).map((poll, i) => poll.sentAt - after[i]!.sentAt);
  assert.ok(Math.max(...gaps) <= 2 * 2000, `a wait of ${Math.max(...gaps)} ms`);
  const { median, pollsPerBlock } = measure(run, blocks, 90, 2000);
  assert.ok(median < 0.15, `median lag ${median} after catching up`);
  assert.ok(pollsPerBlock <= 1.2, `${pollsPerBlock} polls per block`);
});

test("a poll sent before its planned time (the feed woken for another reason) is not taken as the planned one", () => {
  const blocks = slots(60, 2000, () => 150);
  const schedule = new PollSchedule({ assumedBlockTimeMs: 2000 });
  const run = play(blocks.slice(0, 40), { assumedBlockTimeMs: 2000, schedule, endAt: blocks[39]!.appearsAt + 10 });
  const newest = run.polls[run.polls.length - 1]!.newest;
  const planned = schedule.next();
  assert.equal(planned.reason, "due");
  // An early poll finds nothing new: the block is still due (at most held back so that no three polls fall within a
  // block time), not retried as if the due poll had missed it.
  const header = { block: BigInt(newest), timestamp: blocks[newest]!.timestamp };
  schedule.record({ endpoint: "https://rpc.example", sentAt: planned.at - 700, answeredAt: planned.at - 698, header });
  const next = schedule.next();
  assert.equal(next.reason, "due");
  assert.ok(next.at >= planned.at && next.at < planned.at + 2000 / 8, `due ${next.at - planned.at} ms after the plan`);
});

test("how late blocks appear is learned per endpoint: a second endpoint's later blocks are looked for later, the first's delay is kept", () => {
  const early = slots(300, 2000, () => 100);
  const late = slots(300, 2000, () => 1100);
  const switchAt = T0 + 100 * 2000;
  const backAt = T0 + 200 * 2000;
  const onEndpoint = (at: number) => (at >= switchAt && at < backAt ? "https://b.example" : "https://a.example");
  // What each endpoint shows: blocks appear 100 ms into their slot at a, 1,100 ms at b.
  const blocks = early.map((block, k) => (onEndpoint(block.appearsAt) === "https://b.example" ? late[k]! : block));
  const run = play(blocks, { assumedBlockTimeMs: 2000, endpointAt: onEndpoint });
  const dueOffsets = (from: number, to: number) =>
    run.polls.filter((poll) => poll.reason === "due" && poll.sentAt >= from && poll.sentAt < to).map((poll) => (poll.sentAt - T0) % 2000);
  const atA = dueOffsets(switchAt - 40 * 2000, switchAt);
  const atB = dueOffsets(switchAt + 40 * 2000, backAt);
  const backAtA = dueOffsets(backAt + 2000, backAt + 20 * 2000);
  assert.ok(percentile(atA, 50) < 400, `a: polled ${percentile(atA, 50)} ms into the slot`);
  assert.ok(percentile(atB, 50) > 1000 && percentile(atB, 50) < 1500, `b: polled ${percentile(atB, 50)} ms into the slot`);
  assert.ok(percentile(backAtA, 50) < 400, `back at a: polled ${percentile(backAtA, 50)} ms into the slot`);
});
