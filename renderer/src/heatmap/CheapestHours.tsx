import { memo, useMemo } from "react";
import type { BaseFeeStatsBucket } from "../../../shared/wire/baseFeeStats.ts";
import {
  filledCells,
  hourName,
  hourOfWeekRequest,
  levelBounds,
  levelOf,
  MIN_HOURS_TO_NAME,
  placeHours,
  type Stretch,
  stretchName,
  WEEKDAYS_FROM_MONDAY,
  weekdayName,
  weekExtremes,
} from "./hourOfWeek.ts";
import type { ChartCost } from "../costs/chartCost.ts";
import { costBuckets } from "../costs/costSeries.ts";
import type { StatsStore } from "../history/statsStore.ts";
import { bucketTimeSpan } from "../text/timeSpanWords.ts";
import { useBaseFeeStats } from "../history/useBaseFeeStats.ts";
import "./heatmap.css";
import { blockNumber } from "../text/format.ts";
import { usePriceHistory } from "../history/usePriceHistory.ts";
import { GWEI_UNIT, moneyUnit, type ValueUnit } from "../text/valueUnit.ts";
import { type HeldTimes, heldByAnswer, lastSpanWords } from "../text/windowWords.ts";

/** The hour's median changes with every block, but a week's map need not: asked again every 5 minutes. */
const REFRESH_MS = 300_000;
const LEVELS = 5;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const TIME_ZONE = new Intl.DateTimeFormat().resolvedOptions().timeZone;
const WEEK_S = 7 * 86_400;

interface Props {
  readonly store: StatsStore;
  readonly chainId: number;
  readonly chainName: string;
  /**
   * The start (unix seconds) of the local hour of the newest block held (localHourStartSeconds): the map is the week up
   * to it, so that a chain whose clock lags the reader's (or a replay of older blocks) still fills it.
   */
  readonly newestHourStartSeconds: number;
  /** The history held, so that the map says how much of the week it covers while the history is shorter. */
  readonly history: HeldTimes;
  readonly enabled: boolean;
  /** Set: each hour's median cost of one action (money), from the price points held; undefined: the base fee in Gwei. */
  readonly cost?: ChartCost | undefined;
}

/**
 * An hour-of-week map of the median base fee over the last 7 days, in the reader's local time: a row per weekday
 * (Monday first), a cell per hour, coloured by its share of the week (five equal shares, cheapest green), empty where
 * no blocks are held; and the cheapest and dearest hours in words.
 */
export const CheapestHours = memo(function CheapestHours({ store, chainId, chainName, newestHourStartSeconds, history, enabled, cost }: Props) {
  const request = hourOfWeekRequest(newestHourStartSeconds);
  const entry = useBaseFeeStats(store, chainId, request, REFRESH_MS, enabled);
  const prices = usePriceHistory(cost, request.fromSeconds, enabled);
  const unit = useMemo(() => (cost === undefined ? GWEI_UNIT : moneyUnit(cost.currency)), [cost]);
  const { buckets, values } = useMemo(() => {
    if (cost === undefined) return { buckets: entry.buckets, values: undefined };
    if (entry.buckets === undefined || prices.points === undefined) return { buckets: undefined, values: undefined };
    const costed = costBuckets(entry.buckets, cost.gas, prices.points);
    return { buckets: costed.buckets, values: costed.p50Values };
  }, [cost, entry.buckets, prices.points]);
  const noPriceHeld = cost !== undefined && prices.points !== undefined && prices.points.length === 0;
  const error = entry.error ?? (cost === undefined ? undefined : prices.error);
  const weekWords = lastSpanWords(WEEK_S, heldByAnswer(entry.heldFromSeconds, history));
  return (
    <section
      className="heatmap-panel"
      aria-labelledby="heatmap-title"
      data-testid="heatmap"
      data-state={noPriceHeld ? "no-price" : buckets ? "ready" : error ? "error" : "loading"}
      data-unit={unit.name}
    >
      <div className="heatmap-head">
        <h3 id="heatmap-title">Cheapest hours</h3>
        <span className="heatmap-sub">
          {cost === undefined
            ? "median base fee of each hour"
            : `what one ${cost.actionName} cost at each hour's median base fee and that hour's price, in ${cost.currency}, without the tip or a rollup's L1 fee,`}{" "}
          over {weekWords}, in your time ({TIME_ZONE}) · {chainName}
        </span>
      </div>
      {noPriceHeld ? (
        <p className="heatmap-words" data-testid="heatmap-no-price">
          No {cost.currency} price of this chain&apos;s gas token is held for the last 7 days, so its costs cannot be mapped. Choose &quot;base fee (Gwei)&quot;
          above to see the base fee.
        </p>
      ) : buckets === undefined ? (
        <p className="heatmap-words">{error ? `Could not load the last 7 days: ${error}. Retrying by itself.` : "Loading the last 7 days…"}</p>
      ) : (
        <HeatGrid buckets={buckets} values={values} newestHourStartSeconds={newestHourStartSeconds} unit={unit} />
      )}
    </section>
  );
});

const HeatGrid = memo(function HeatGrid({
  buckets,
  values,
  newestHourStartSeconds,
  unit,
}: {
  buckets: readonly BaseFeeStatsBucket[];
  /** In money, each hour's unrounded cost by its start (costBuckets' p50Values): the cells are ranked by it. */
  values: ReadonlyMap<number, number> | undefined;
  newestHourStartSeconds: number;
  unit: ValueUnit;
}) {
  const { grid, bounds, extremes, filled } = useMemo(() => {
    const placed = values === undefined ? placeHours(buckets) : placeHours(buckets, (bucket) => values.get(bucket.start) ?? Number(bucket.p50));
    const cells = filledCells(placed);
    return { grid: placed, bounds: levelBounds(cells, LEVELS), extremes: weekExtremes(placed), filled: cells.length };
  }, [buckets, values]);
  return (
    <>
      <div
        className="heatmap"
        role="img"
        aria-label={`${unit.kind === "gwei" ? "Median base fee" : "Cost"} by weekday and hour (the cheapest and dearest hours are named below)`}
        data-filled={filled}
      >
        <div className="heat-corner" aria-hidden="true" />
        {HOURS.map((hour) => (
          <div key={hour} className="heat-hour" aria-hidden="true">
            {hour % 3 === 0 ? hourName(hour) : ""}
          </div>
        ))}
        {WEEKDAYS_FROM_MONDAY.map((weekday) => (
          <div key={weekday} className="heat-row">
            <div className="heat-day">{weekdayName(weekday)}</div>
            {HOURS.map((hour) => {
              const cell = grid[weekday]![hour];
              const now = cell !== undefined && cell.bucket.start === newestHourStartSeconds;
              if (cell === undefined) {
                return (
                  <div
                    key={hour}
                    className="heat-cell heat-empty"
                    data-testid={`heat-${weekday}-${hour}`}
                    title={`${weekdayName(weekday)} ${hourName(hour)}: no blocks held`}
                  />
                );
              }
              const level = levelOf(cell.p50, bounds);
              return (
                <div
                  key={hour}
                  className={`heat-cell heat-level-${level}${now ? " heat-now" : ""}`}
                  data-testid={`heat-${weekday}-${hour}`}
                  data-value={cell.bucket.p50}
                  data-level={level}
                  title={`${bucketTimeSpan(cell.bucket.start, cell.bucket.end)}${now ? " (the newest hour)" : ""}: ${unit.kind === "gwei" ? "median" : "at the median base fee"} ${unit.exact(cell.bucket.p50!)} over ${blockNumber(cell.bucket.blocks)} blocks`}
                />
              );
            })}
          </div>
        ))}
      </div>
      <HeatLegend bounds={bounds} unit={unit} />
      <p className="heatmap-words" data-testid="cheapest-hours">
        {filled === 0 ? (
          "No blocks held in the last 7 days yet: the map fills in as the service keeps history."
        ) : extremes === undefined ? (
          `Only ${filled} hour${filled === 1 ? "" : "s"} held so far: the cheapest and dearest hours are named once ${MIN_HOURS_TO_NAME} are, and the map fills in as the service keeps history.`
        ) : (
          <>
            <strong>Cheapest:</strong> <Stretches kind="cheapest" stretches={extremes.cheapest} unit={unit} />. <strong>Dearest:</strong>{" "}
            <Stretches kind="dearest" stretches={extremes.dearest} unit={unit} />.
            {filled < 24 ? ` Only ${filled} hour${filled === 1 ? "" : "s"} held so far: the map fills in as the service keeps history.` : ""}
          </>
        )}
      </p>
    </>
  );
});

/** "Sun 2 AM–5 AM (about 12.3 Gwei), Sat 3 AM–4 AM (13)": each stretch with its mean median, the unit named once. */
function Stretches({ kind, stretches, unit }: { kind: "cheapest" | "dearest"; stretches: readonly Stretch[]; unit: ValueUnit }) {
  return stretches.map((stretch, index) => (
    <span
      key={`${stretch.weekday} ${stretch.fromHour}`}
      data-testid={`${kind}-stretch`}
      data-weekday={stretch.weekday}
      data-from-hour={stretch.fromHour}
      data-to-hour={stretch.toHour}
    >
      {index === 0 ? "" : ", "}
      {stretchName(stretch)} ({index === 0 ? `about ${unit.short(stretch.meanP50)}${unit.kind === "gwei" ? " Gwei" : ""}` : unit.short(stretch.meanP50)})
    </span>
  ));
}

function HeatLegend({ bounds, unit }: { bounds: readonly number[]; unit: ValueUnit }) {
  if (bounds.length === 0) return null;
  const short = unit.alike(bounds);
  return (
    <ul className="heat-legend" data-testid="heat-legend" aria-label="Colours">
      {bounds.map((bound, level) => {
        const from = level === 0 ? undefined : bounds[level - 1]!;
        // Levels whose bound equals the one below hold no cell (a week at one fee): not listed.
        if (from === bound) return null;
        const words = from === undefined ? `≤ ${short(bound)}` : `${short(from)} – ${short(bound)}`;
        return (
          <li key={level}>
            <span className={`heat-swatch heat-level-${level}`} aria-hidden="true" />
            {words}
          </li>
        );
      })}
      <li className="heat-legend-unit">{unit.name}</li>
      <li>
        <span className="heat-swatch heat-empty" aria-hidden="true" />
        no blocks held
      </li>
    </ul>
  );
}
