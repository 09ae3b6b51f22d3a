import { memo } from "react";
import { shortGwei } from "../../../shared/core/text/shortGwei.ts";
import { statsLineNames } from "../text/windowWords.ts";

interface Props {
  /** "blocks": one line of base fees; "bands": per-bucket bands. */
  readonly kind: "blocks" | "bands";
  readonly baseFeePercentile: string;
  readonly busyThreshold: string;
  /** The statistics window in words (statsWindowWords). */
  readonly windowName: string;
  /** How many alert rules' thresholds the chart draws (dotted). */
  readonly alertLines: number;
  /** The blob view's legend: blob base fees, and on the blocks chart the EIP-7918 floor. */
  readonly series?: "blob";
  /** The bands are an action's cost in this currency (the statistics lines, in Gwei, are not drawn then). */
  readonly moneyOf?: string | undefined;
}

/** What each mark on the chart is, with the statistics lines named by their window and value. */
export const ChartLegend = memo(function ChartLegend({ kind, baseFeePercentile, busyThreshold, windowName, alertLines, series, moneyOf }: Props) {
  const names = statsLineNames(windowName);
  return (
    <ul className="chart-legend" data-testid={series === "blob" ? "blob-chart-legend" : "chart-legend"}>
      {kind === "blocks" ? (
        <>
          <li>
            <span className="swatch swatch-line" aria-hidden="true" />
            {series === "blob" ? "blob base fee per block" : "base fee per block"}
          </li>
          {series === "blob" ? (
            <li title="EIP-7918: below a sixteenth of the block's base fee, the blob base fee only rises">
              <span className="swatch swatch-floor" aria-hidden="true" />
              floor (base fee ÷ 16)
            </li>
          ) : null}
        </>
      ) : (
        <>
          <li>
            <span className="swatch swatch-median" aria-hidden="true" />
            median
          </li>
          <li>
            <span className="swatch swatch-bands" aria-hidden="true" />
            p25–p75, p10–p90
          </li>
          <li>
            <span className="swatch swatch-minmax" aria-hidden="true" />
            min–max
          </li>
        </>
      )}
      {moneyOf !== undefined && kind === "bands" ? (
        <li data-testid="legend-money">cost in {moneyOf}</li>
      ) : (
        <>
          <li data-testid="legend-p50" title={`${names.p50}: ${baseFeePercentile} Gwei`}>
            <span className="swatch swatch-p50" aria-hidden="true" />
            {names.p50} <strong>{shortGwei(baseFeePercentile)}</strong>
          </li>
          <li data-testid="legend-busy" title={`${names.busy}: ${busyThreshold} Gwei`}>
            <span className="swatch swatch-busy" aria-hidden="true" />
            {names.busy} <strong>{shortGwei(busyThreshold)}</strong>
          </li>
        </>
      )}
      {alertLines > 0 ? (
        <li data-testid="legend-alerts">
          <span className="swatch swatch-alert" aria-hidden="true" />
          {alertLines === 1 ? "alert rule" : "alert rules"}
        </li>
      ) : null}
    </ul>
  );
});
