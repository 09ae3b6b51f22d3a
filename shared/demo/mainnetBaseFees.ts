import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Consecutive blocks' base fees: `baseFeesWei[i]` is block `firstBlock + i`'s. */
export interface BaseFeeSeries {
  readonly firstBlock: bigint;
  readonly baseFeesWei: readonly bigint[];
}

/** 14,651 real mainnet blocks, 17,180,000 to 17,194,650 (see data/README.md). */
export const MAINNET_BASE_FEES_CSV = fileURLToPath(new URL("./data/mainnet-17180000-17194650.csv", import.meta.url));

export class BaseFeeCsvError extends Error {
  override name = "BaseFeeCsvError";
  constructor(source: string, line: number, problem: string) {
    super(`${source}, line ${line}: ${problem}. Each row must be "block_number,base_fee_wei" (decimal integers, consecutive blocks) after the header.`);
  }
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** Parses `block_number,base_fee_wei` rows (a header line first), checking every row. */
export function parseBaseFeeCsv(text: string, source = "base fee CSV"): BaseFeeSeries {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  if (lines[0]?.trim() !== "block_number,base_fee_wei") {
    throw new BaseFeeCsvError(source, 1, `expected the header "block_number,base_fee_wei", found "${lines[0] ?? ""}"`);
  }
  if (lines.length < 2) throw new BaseFeeCsvError(source, 2, "no rows");
  let firstBlock = 0n;
  const baseFeesWei: bigint[] = [];
  for (let i = 1; i < lines.length; i++) {
    const cells = lines[i]!.trim().split(",");
    if (cells.length !== 2 || !DECIMAL.test(cells[0]!) || !DECIMAL.test(cells[1]!)) {
      throw new BaseFeeCsvError(source, i + 1, `"${lines[i]}" is not two non-negative decimal integers`);
    }
    const block = BigInt(cells[0]!);
    if (i === 1) firstBlock = block;
    else if (block !== firstBlock + BigInt(i - 1)) {
      throw new BaseFeeCsvError(source, i + 1, `block ${block} does not follow block ${firstBlock + BigInt(i - 2)}`);
    }
    baseFeesWei.push(BigInt(cells[1]!));
  }
  return { firstBlock, baseFeesWei };
}

/** The real mainnet base fees shipped in data/, read and checked on each call (a few milliseconds): keep what it returns. */
export function loadMainnetBaseFees(path = MAINNET_BASE_FEES_CSV): BaseFeeSeries {
  return parseBaseFeeCsv(readFileSync(path, "utf8"), path);
}
