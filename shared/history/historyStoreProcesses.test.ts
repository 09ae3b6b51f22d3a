// Real processes on one history file: two writing overlapping ranges at once (the desktop app and `npm run serve`
// on one config folder), and one killed with SIGKILL in the middle of a write.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { startWriter } from "../../test/support/storeWriterProcess.ts";
import { HistoryStore, type StoredRun } from "./historyStore.ts";
import { BLOB_WRITER, RATIO_WRITER, writerBlobFeeOf, writerFeeOf, writerRatioOf, writerTimestampOf } from "./historyStoreWriterValues.ts";

const temporaryFile = () => join(mkdtempSync(join(tmpdir(), "gasfees-history-processes-")), "history.sqlite");

/** SQLite's own check, and the store's: every chunk has exactly one record, and no record is left without a chunk. */
function assertIntact(file: string): void {
  const db = new DatabaseSync(file);
  try {
    assert.deepEqual(
      db
        .prepare("PRAGMA integrity_check")
        .all()
        .map((row) => row.integrity_check),
      ["ok"],
    );
    const count = (sql: string) => Number(db.prepare(sql).get()?.n);
    assert.equal(
      count("SELECT count(*) AS n FROM chunks_1 AS c LEFT JOIN records_1 AS r ON r.record = c.record WHERE r.record IS NULL"),
      0,
      "chunks without a record",
    );
    assert.equal(count("SELECT count(*) AS n FROM records_1 WHERE record NOT IN (SELECT record FROM chunks_1)"), 0, "records without a chunk");
    assert.equal(count("SELECT count(*) - count(DISTINCT record) AS n FROM chunks_1"), 0, "records shared by two chunks");
  } finally {
    db.close();
  }
}

function blocksOf(runs: Iterable<StoredRun>): Array<{ block: number; run: StoredRun; i: number }> {
  const blocks: Array<{ block: number; run: StoredRun; i: number }> = [];
  for (const run of runs) for (let i = 0; i < run.baseFeesWei.length; i++) blocks.push({ block: Number(run.firstBlock) + i, run, i });
  return blocks;
}

test(
  "two processes writing overlapping ranges to one file at once: nothing corrupted, nothing duplicated, every value exact",
  { timeout: 180_000 },
  async () => {
    // A new file: both writers open it as they start, so whichever comes first creates the schema.
    const file = temporaryFile();
    const [first, last, pageBlocks, rounds] = [1_000, 60_999, 1_000, 6];
    // One writes pages upwards on a grid from 1,000, the other downwards on a grid shifted by 500: every page of one
    // straddles two of the other's, and chunk boundaries (every 64 blocks) fall inside pages of both.
    const ratioWriter = startWriter(["overlap", file, String(RATIO_WRITER), String(first), String(last), String(pageBlocks), "0", "up", String(rounds)]);
    const blobWriter = startWriter(["overlap", file, String(BLOB_WRITER), String(first), String(last), String(pageBlocks), "500", "down", String(rounds)]);
    try {
      // Both told to go only once both are ready: a writer still starting up (tsx, a loaded machine) would otherwise
      // begin after the other had finished.
      await Promise.all([ratioWriter.nextLine((line) => line === "ready"), blobWriter.nextLine((line) => line === "ready")]);
      for (const writer of [ratioWriter, blobWriter]) writer.child.stdin!.write("go\n");
      const [ratioReport, blobReport] = (await Promise.all([ratioWriter.nextLine(), blobWriter.nextLine()])).map(
        (line) => JSON.parse(line) as { startedAt: number; endedAt: number; writes: number },
      ) as [{ startedAt: number; endedAt: number; writes: number }, { startedAt: number; endedAt: number; writes: number }];
      for (const writer of [ratioWriter, blobWriter]) assert.deepEqual(await writer.exited, { code: 0, signal: null }, writer.stderr());
      assert.equal(ratioReport.writes, 60 * rounds);
      assert.equal(blobReport.writes, 61 * rounds);
      // They wrote at the same time, not one after the other.
      assert.ok(ratioReport.startedAt < blobReport.endedAt && blobReport.startedAt < ratioReport.endedAt, JSON.stringify([ratioReport, blobReport]));

      assertIntact(file);
      const store = HistoryStore.open(file);
      assert.deepEqual(
        store.heldRanges(1).map(({ fromBlock, toBlock }) => [fromBlock, toBlock]),
        [[BigInt(first), BigInt(last)]],
      );
      const blocks = blocksOf(store.load(1));
      assert.deepEqual(
        blocks.map(({ block }) => block),
        Array.from({ length: last - first + 1 }, (_, i) => first + i),
      );
      const writtenBy = { [RATIO_WRITER]: 0, [BLOB_WRITER]: 0 };
      for (const { block, run, i } of blocks) {
        const fee = run.baseFeesWei[i]!;
        const writer = fee === writerFeeOf(RATIO_WRITER, block) ? RATIO_WRITER : fee === writerFeeOf(BLOB_WRITER, block) ? BLOB_WRITER : undefined;
        assert.ok(writer !== undefined, `block ${block}: base fee ${fee} is neither writer's`);
        writtenBy[writer]++;
        // Each writer left out what the other gave, and a write keeps the fields it leaves out: both survive everywhere.
        assert.equal(run.gasUsedRatios[i], writerRatioOf(block), `block ${block}'s gas-used ratio`);
        assert.equal(run.blobBaseFeesWei[i], writerBlobFeeOf(block), `block ${block}'s blob base fee`);
      }
      for (const run of store.load(1)) for (const anchor of run.anchors) assert.equal(anchor.timestamp, writerTimestampOf(Number(anchor.block)));
      store.close();
      assert.equal(writtenBy[RATIO_WRITER] + writtenBy[BLOB_WRITER], last - first + 1);
    } finally {
      for (const writer of [ratioWriter, blobWriter]) writer.child.kill("SIGKILL");
    }
  },
);

test("a writer killed with SIGKILL mid-write loses only the write in flight; the file opens cleanly and writing resumes", { timeout: 180_000 }, async () => {
  const file = temporaryFile();
  // The largest write the store takes (262,144 blocks, ~0.1 s), so that a kill lands inside one.
  const pageBlocks = 262_144;
  let resumeFrom = 0;
  let lostInFlight = 0;
  for (let cycle = 0; cycle < 3; cycle++) {
    const writer = startWriter(["pages", file, String(resumeFrom), String(pageBlocks)]);
    try {
      const committedBefore = resumeFrom;
      const committed = await writer.nextLine((line) => line.startsWith(`committed ${committedBefore} `));
      const writeMs = Number(committed.split(" ")[2]);
      const inFlight = Number((await writer.nextLine((line) => line.startsWith("begin ") && line !== `begin ${committedBefore}`)).slice("begin ".length));
      // Half as long as the last write took: the kill lands well inside this one, after some of its chunks.
      await new Promise((resolve) => setTimeout(resolve, writeMs / 2));
      writer.child.kill("SIGKILL");
      assert.deepEqual(await writer.exited, { code: null, signal: "SIGKILL" });

      assertIntact(file);
      const store = HistoryStore.open(file);
      const ranges = store.heldRanges(1).map(({ fromBlock, toBlock }) => [Number(fromBlock), Number(toBlock)]);
      // Every write reported committed is held whole; the one in flight is held whole or not at all.
      const heldTo = ranges[0]?.[1];
      assert.ok(heldTo === inFlight - 1 || heldTo === inFlight + pageBlocks - 1, `held ${JSON.stringify(ranges)} with the write from ${inFlight} in flight`);
      assert.deepEqual(ranges, [[0, heldTo]]);
      if (heldTo === inFlight - 1) lostInFlight++;
      for (const { block, run, i } of blocksOf(store.load(1, BigInt(committedBefore))))
        assert.equal(run.baseFeesWei[i], writerFeeOf(0, block), `block ${block}`);
      store.close();
      resumeFrom = heldTo + 1;
    } finally {
      writer.child.kill("SIGKILL");
    }
  }
  // At least one kill did land inside a write (each is sent halfway through the time the write before took).
  assert.ok(lostInFlight > 0, "no kill landed inside a write");
  const store = HistoryStore.open(file);
  store.write(1, BigInt(resumeFrom), { baseFeesWei: [1n] });
  assert.equal(store.heldRanges(1)[0]?.toBlock, BigInt(resumeFrom));
  store.close();
});
