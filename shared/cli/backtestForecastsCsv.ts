// `npm run backtest -- --out FILE.csv`: one row per forecast, with the columns CONTRACT.md names.
import { toGweiString } from "../core/fees/gwei.ts";
import type { BacktestResult } from "../core/outlook/backtest.ts";

export const BACKTEST_FORECASTS_HEADER =
  "t,within_h,ratio,current_gwei,threshold_gwei,probability,lowest_p10_gwei,lowest_p50_gwei,lowest_p90_gwei,outcome_lowest_gwei";

/** Wei as a (possibly fractional) number, rounded to whole wei, in the contract's Gwei text. */
function gweiOf(wei: number): string {
  return Number.isFinite(wei) ? toGweiString(BigInt(Math.max(0, Math.round(wei)))) : "";
}

/**
 * The rows, moment by moment, then horizon by horizon, then ratio by ratio. The threshold and the quantiles are ratios
 * of the current fee, rounded to whole wei; the outcome is the lowest sample in (t, t + H], empty when that holds no
 * sample or runs past the end of the file's last sampled hour.
 */
export function backtestForecastsCsv(result: BacktestResult): string {
  const { moments, firstMoment, forecasts, withinHours, ratios, lowest } = result;
  const rows = [BACKTEST_FORECASTS_HEADER];
  for (let n = 0; n < forecasts.count; n += 1) {
    const i = firstMoment + n;
    const t = moments.times[i]!;
    const current = moments.currentNumber[i]!;
    const currentText = toGweiString(moments.current[i]!);
    for (let h = 0; h < withinHours.length; h += 1) {
      const [p10, p50, p90] = forecasts.quantile[h]!.map((column) => gweiOf(column[n]! * current));
      const outcome = lowest[h]![i]!;
      const outcomeText = Number.isNaN(outcome) ? "" : gweiOf(outcome);
      for (let k = 0; k < ratios.length; k += 1) {
        const probability = forecasts.probability[h]![k]![n]!;
        rows.push(
          `${t},${withinHours[h]},${ratios[k]},${currentText},${gweiOf(ratios[k]! * current)},${Number(probability.toFixed(6))},${p10},${p50},${p90},${outcomeText}`,
        );
      }
    }
  }
  return rows.join("\n") + "\n";
}
