// Real mainnet blocks with their real timestamps, as the history tests replay them: ../shared/data/*-timed.csv beside
// the repository, or the copy committed beside this file where the repository is checked out alone (a CI runner).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** 14,651 blocks of 3-5 May 2023 (after the Merge: 12 s slots, a missed slot now and then). */
export const TIMED_MAINNET_CSV = "mainnet-17180000-17194650-timed.csv";

/** Consecutive blocks: block `firstBlock + i` was mined at `timestamps[i]` (unix seconds) with base fee `baseFeesWei[i]`. */
export interface TimedBlocks {
  readonly firstBlock: bigint;
  readonly timestamps: readonly number[];
  readonly baseFeesWei: readonly bigint[];
}

const ROW = /^(0|[1-9][0-9]*),(0|[1-9][0-9]*),(0|[1-9][0-9]*)$/;

/** Reads and checks a timed CSV (header, then `block_number,timestamp,base_fee_wei` rows of consecutive blocks, in time order). */
export function loadTimedMainnetBlocks(name = TIMED_MAINNET_CSV): TimedBlocks {
  const beside = fileURLToPath(new URL(`../../../shared/data/${name}`, import.meta.url));
  const copy = fileURLToPath(new URL(`./data/${name}`, import.meta.url));
  const path = existsSync(beside) ? beside : copy;
  if (!existsSync(path)) throw new Error(`${name} is missing: it is read from ${beside} (../shared/data beside the repository) or ${copy}`);
  const lines = readFileSync(path, "utf8").trim().split(/\r?\n/);
  if (lines[0] !== "block_number,timestamp,base_fee_wei") throw new Error(`${path}: the header is "${lines[0]}", not "block_number,timestamp,base_fee_wei"`);
  const timestamps: number[] = [];
  const baseFeesWei: bigint[] = [];
  let firstBlock = 0n;
  lines.slice(1).forEach((line, i) => {
    const cells = ROW.exec(line.trim());
    if (!cells) throw new Error(`${path}, line ${i + 2}: "${line}" is not three decimal integers`);
    const block = BigInt(cells[1]!);
    if (i === 0) firstBlock = block;
    else if (block !== firstBlock + BigInt(i)) throw new Error(`${path}, line ${i + 2}: block ${block} does not follow block ${firstBlock + BigInt(i - 1)}`);
    const timestamp = Number(cells[2]!);
    if (i > 0 && timestamp < timestamps[i - 1]!) throw new Error(`${path}, line ${i + 2}: block ${block}'s timestamp goes backwards`);
    timestamps.push(timestamp);
    baseFeesWei.push(BigInt(cells[3]!));
  });
  return { firstBlock, timestamps, baseFeesWei };
}
