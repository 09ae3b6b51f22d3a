// A separate process writing to a history store, for historyStoreProcesses.test.ts: two of them at once on one file
// (as the desktop app and `npm run serve` on one config folder), or one killed with SIGKILL in the middle of a write.
//
//   overlap <file> <variant> <firstBlock> <lastBlock> <pageBlocks> <pageOffset> <up|down> <rounds>
//     opens the file and prints "ready", waits for a line on stdin, then writes [firstBlock, lastBlock] in pages `rounds`
//     times, and prints one JSON line:
//     {"startedAt":<ms>,"endedAt":<ms>,"writes":<n>} (wall-clock ms, to show that two writers overlapped in time)
//   pages <file> <firstBlock> <pageBlocks>
//     writes pages upwards from firstBlock until killed, printing "begin <first>" before each write and
//     "committed <first> <ms the write took>" after it
//   lock <file>
//     opens the file with a connection of its own, takes its write lock (BEGIN EXCLUSIVE) and prints "locked", holds it
//     until a line comes on stdin, then ends the transaction (COMMIT) and prints "released" (another gasfees, or any
//     SQLite client, holding the file for as long as the test says)
import { createInterface } from "node:readline";
import { DatabaseSync } from "node:sqlite";
import { HistoryStore } from "./historyStore.ts";
import { writerBlocks } from "./historyStoreWriterValues.ts";

function overlap(args: readonly string[]): Promise<void> {
  const [file, variantText, firstText, lastText, pageText, offsetText, direction, roundsText] = args as [string, ...string[]];
  const [variant, first, last, pageBlocks, pageOffset, rounds] = [variantText, firstText, lastText, pageText, offsetText, roundsText].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const store = HistoryStore.open(file);
  // Page starts on a grid shifted by pageOffset, clipped to the range, in the order asked.
  const starts: number[] = [];
  for (let start = first - ((first - pageOffset) % pageBlocks); start <= last; start += pageBlocks) starts.push(start);
  if (direction === "down") starts.reverse();
  return new Promise((resolve) => {
    const input = createInterface({ input: process.stdin });
    // Said once the store is open and the pages planned: the test starts every writer together only then.
    process.stdout.write("ready\n");
    input.once("line", () => {
      // Closed at once: an open stdin would keep this process alive after its work.
      input.close();
      process.stdin.destroy();
      const startedAt = Date.now();
      let writes = 0;
      for (let round = 0; round < rounds; round++) {
        for (const start of starts) {
          const from = Math.max(start, first);
          const to = Math.min(start + pageBlocks - 1, last);
          store.write(1, BigInt(from), writerBlocks(variant, from, to));
          writes++;
        }
      }
      process.stdout.write(`${JSON.stringify({ startedAt, endedAt: Date.now(), writes })}\n`);
      store.close();
      resolve();
    });
  });
}

function pages(args: readonly string[]): void {
  const [file, firstText, pageText] = args as [string, string, string];
  const store = HistoryStore.open(file);
  const pageBlocks = Number(pageText);
  for (let from = Number(firstText); ; from += pageBlocks) {
    const blocks = writerBlocks(0, from, from + pageBlocks - 1);
    process.stdout.write(`begin ${from}\n`);
    const startedAt = performance.now();
    store.write(1, BigInt(from), blocks);
    process.stdout.write(`committed ${from} ${Math.round(performance.now() - startedAt)}\n`);
  }
}

function lock(args: readonly string[]): Promise<void> {
  const db = new DatabaseSync(args[0]!);
  db.exec("BEGIN EXCLUSIVE");
  process.stdout.write("locked\n");
  return new Promise((resolve) => {
    const input = createInterface({ input: process.stdin });
    input.once("line", () => {
      input.close();
      process.stdin.destroy();
      db.exec("COMMIT");
      db.close();
      process.stdout.write("released\n");
      resolve();
    });
  });
}

async function main(): Promise<void> {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === "overlap") await overlap(args);
  else if (mode === "pages") pages(args);
  else if (mode === "lock") await lock(args);
  else throw new Error(`unknown mode ${mode}: overlap, pages or lock`);
}

await main();
