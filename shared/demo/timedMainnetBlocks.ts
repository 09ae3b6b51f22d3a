import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Consecutive blocks with their real times: block `firstBlock + i` was mined at `timestamps[i]` (unix seconds) with base fee `baseFeesWei[i]`. */
export interface TimedBlocks {
  readonly firstBlock: bigint;
  readonly timestamps: readonly number[];
  readonly baseFeesWei: readonly bigint[];
}

/** 14,651 real mainnet blocks, 17,180,000 to 17,194,650 (3-5 May 2023), each with its timestamp (see data/README.md). */
export const TIMED_MAINNET_CSV_NAME = "mainnet-17180000-17194650-timed.csv";

/**
 * Where the demo's data file `name` is: in data/ beside this module (shared/demo/data in the source tree), or, from the
 * service's bundle in dist/serve/ (which holds a copy of the files scripts/buildServe.mjs names), in the repository's
 * shared/demo/data, two folders up from the bundle as from this module.
 */
export function demoDataPath(name: string): string {
  const beside = fileURLToPath(new URL(`./data/${name}`, import.meta.url));
  if (existsSync(beside)) return beside;
  const inRepository = fileURLToPath(new URL(`../../shared/demo/data/${name}`, import.meta.url));
  return existsSync(inRepository) ? inRepository : beside;
}

export class TimedBlocksCsvError extends Error {
  override name = "TimedBlocksCsvError";
  constructor(source: string, line: number, problem: string) {
    super(
      `${source}, line ${line}: ${problem}. Each row must be "block_number,timestamp,base_fee_wei" (decimal integers; consecutive blocks, each ` +
        `later than the one before) after that header.`,
    );
  }
}

const HEADER = "block_number,timestamp,base_fee_wei";
const ROW = /^(0|[1-9][0-9]*),(0|[1-9][0-9]*),(0|[1-9][0-9]*)$/;

/** Parses `block_number,timestamp,base_fee_wei` rows (the header first), checking every row. */
export function parseTimedBlocksCsv(text: string, source = "timed blocks CSV"): TimedBlocks {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  if (lines[0]?.trim() !== HEADER) throw new TimedBlocksCsvError(source, 1, `expected the header "${HEADER}", found "${lines[0] ?? ""}"`);
  if (lines.length < 2) throw new TimedBlocksCsvError(source, 2, "no rows");
  let firstBlock = 0n;
  const timestamps: number[] = [];
  const baseFeesWei: bigint[] = [];
  for (let i = 1; i < lines.length; i++) {
    const cells = ROW.exec(lines[i]!.trim());
    if (!cells) throw new TimedBlocksCsvError(source, i + 1, `"${lines[i]}" is not three non-negative decimal integers`);
    const block = BigInt(cells[1]!);
    const timestamp = Number(cells[2]!);
    if (i === 1) firstBlock = block;
    else if (block !== firstBlock + BigInt(i - 1)) {
      throw new TimedBlocksCsvError(source, i + 1, `block ${block} does not follow block ${firstBlock + BigInt(i - 2)}`);
    }
    if (!Number.isSafeInteger(timestamp)) throw new TimedBlocksCsvError(source, i + 1, `the timestamp ${cells[2]} is too large`);
    if (i > 1 && timestamp <= timestamps[timestamps.length - 1]!) {
      throw new TimedBlocksCsvError(
        source,
        i + 1,
        `block ${block}'s timestamp ${timestamp} is not after the block before's (${timestamps[timestamps.length - 1]})`,
      );
    }
    timestamps.push(timestamp);
    baseFeesWei.push(BigInt(cells[3]!));
  }
  return { firstBlock, timestamps, baseFeesWei };
}

/** The real mainnet blocks with timestamps shipped in data/, read and checked on each call (~20 ms): keep what it returns. */
export function loadTimedMainnetBlocks(path = demoDataPath(TIMED_MAINNET_CSV_NAME)): TimedBlocks {
  return parseTimedBlocksCsv(readFileSync(path, "utf8"), path);
}
