// The samples file `npm run backtest` reads (CONTRACT.md, "Outlook: wait or pay now"): a header naming `timestamp`
// (unix s) and `base_fee_wei` or `base_fee_gwei`, in any order and spacing; other columns ignored.
import { parseGweiAmount } from "../fees/parseGweiAmount.ts";
import type { FeeSample } from "./feeSample.ts";

/** What is wrong with a samples file, in one line that names the line at fault. */
export class SampleCsvError extends Error {
  override name = "SampleCsvError";
}

/** Reads the samples of a CSV text, sorted by time (a stable sort: samples of one second keep the file's order). */
export function parseSampleCsv(text: string): FeeSample[] {
  const lines = text.split(/\r?\n/);
  const headerIndex = lines.findIndex((line) => line.trim() !== "");
  if (headerIndex === -1) throw new SampleCsvError("the file is empty: it needs a header with timestamp and base_fee_wei or base_fee_gwei");
  const header = lines[headerIndex]!.replace(/^\uFEFF/, "")
    .split(",")
    .map((name) => name.trim().toLowerCase());
  const timestampColumn = header.indexOf("timestamp");
  const weiColumn = header.indexOf("base_fee_wei");
  const gweiColumn = header.indexOf("base_fee_gwei");
  if (timestampColumn === -1 || (weiColumn === -1 && gweiColumn === -1)) {
    throw new SampleCsvError(
      `line ${headerIndex + 1}: the header must name timestamp and base_fee_wei or base_fee_gwei (got '${lines[headerIndex]!.trim().slice(0, 120)}')`,
    );
  }
  const feeColumn = weiColumn !== -1 ? weiColumn : gweiColumn;
  const inGwei = weiColumn === -1;
  const samples: FeeSample[] = [];
  for (let index = headerIndex + 1; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line.trim() === "") continue;
    const cells = line.split(",");
    const where = `line ${index + 1}`;
    const timestampText = (cells[timestampColumn] ?? "").trim();
    const feeText = (cells[feeColumn] ?? "").trim();
    if (!/^[0-9]{1,12}$/.test(timestampText)) throw new SampleCsvError(`${where}: timestamp must be whole unix seconds (got '${timestampText.slice(0, 40)}')`);
    samples.push({ timestamp: Number(timestampText), baseFee: inGwei ? gweiToWei(feeText, where) : weiOf(feeText, where) });
  }
  if (samples.length === 0) throw new SampleCsvError("the file has a header but no samples");
  return samples.sort((a, b) => a.timestamp - b.timestamp);
}

function weiOf(text: string, where: string): bigint {
  if (!/^[0-9]{1,40}$/.test(text)) throw new SampleCsvError(`${where}: base_fee_wei must be a whole number of wei (got '${text.slice(0, 40)}')`);
  return BigInt(text);
}

function gweiToWei(text: string, where: string): bigint {
  const amount = parseGweiAmount(text);
  if ("problem" in amount) throw new SampleCsvError(`${where}: base_fee_gwei ${amount.problem}`);
  return amount.wei;
}
