import type { HourlySummary } from "../core/outlook/hourlySummary.ts";
import { HOURLY_STATS_CSV_HEADER } from "../wire/hourlyStats.ts";
import { hourlyStatsCsvLineOf, hourlyStatsRowOf, summariesBetween } from "./hourlyStatsRows.ts";
import { type PreparedBody, strongEtagOf } from "./preparedBody.ts";

/**
 * /hourlyStats' and /hourlyStats.csv's bodies, made from text kept per summary (a summary is frozen, and the book
 * hands the same object on until its hour changes): a year of one chain (8,760 hours, 1.4 MB of JSON) costs a join and
 * a hash, not 8,760 rows formatted again. The whole-range answer of each summaries array is kept as it is (the
 * publication's array changes only with an hour). One per server (ServerResources); nothing here outlives the arrays.
 */
export class HourlyStatsAnswers {
  readonly #jsonRows = new WeakMap<HourlySummary, string>();
  readonly #csvLines = new WeakMap<HourlySummary, string>();
  readonly #wholeJson = new WeakMap<readonly HourlySummary[], PreparedBody>();
  readonly #wholeCsv = new WeakMap<readonly HourlySummary[], PreparedBody>();

  /** The JSON array of the summaries whose start lies in [fromSeconds, toSeconds], oldest first, with its ETag. */
  json(summaries: readonly HourlySummary[], fromSeconds: number | undefined, toSeconds: number | undefined): PreparedBody {
    return this.#answer(summaries, fromSeconds, toSeconds, this.#wholeJson, (selected) => `[${selected.map((summary) => this.#jsonRow(summary)).join(",")}]`);
  }

  /** The CSV of the same summaries, under HOURLY_STATS_CSV_HEADER, with its ETag. */
  csv(summaries: readonly HourlySummary[], fromSeconds: number | undefined, toSeconds: number | undefined): PreparedBody {
    return this.#answer(
      summaries,
      fromSeconds,
      toSeconds,
      this.#wholeCsv,
      (selected) => `${HOURLY_STATS_CSV_HEADER}\n${selected.map((summary) => this.#csvLine(summary)).join("")}`,
    );
  }

  #answer(
    summaries: readonly HourlySummary[],
    fromSeconds: number | undefined,
    toSeconds: number | undefined,
    whole: WeakMap<readonly HourlySummary[], PreparedBody>,
    text: (selected: readonly HourlySummary[]) => string,
  ): PreparedBody {
    const selected = summariesBetween(summaries, fromSeconds, toSeconds);
    const everything = selected === summaries;
    const kept = everything ? whole.get(summaries) : undefined;
    if (kept !== undefined) return kept;
    const body = Buffer.from(text(selected), "utf8");
    const prepared = Object.freeze({ body, etag: strongEtagOf(body) });
    if (everything) whole.set(summaries, prepared);
    return prepared;
  }

  #jsonRow(summary: HourlySummary): string {
    let row = this.#jsonRows.get(summary);
    if (row === undefined) {
      row = JSON.stringify(hourlyStatsRowOf(summary));
      this.#jsonRows.set(summary, row);
    }
    return row;
  }

  #csvLine(summary: HourlySummary): string {
    let line = this.#csvLines.get(summary);
    if (line === undefined) {
      line = hourlyStatsCsvLineOf(summary);
      this.#csvLines.set(summary, line);
    }
    return line;
  }
}
