import { memo, useMemo } from "react";
import type { HourlyStats } from "../../../shared/wire/hourlyStats.ts";
import {
  filledCells,
  type HeatCell,
  type HeatGrid as Grid,
  heldDays,
  hourName,
  levelBounds,
  levelOf,
  MIN_HOURS_TO_NAME,
  placeHours,
  priceCells,
  type Stretch,
  stretchName,
  WEEKDAYS_FROM_MONDAY,
  weekdayName,
  weekExtremes,
  weeksPerCell,
} from "./hourOfWeek.ts";
import type { ChartCost } from "../costs/chartCost.ts";
import "./heatmap.css";
import { usePriceHistory } from "../history/usePriceHistory.ts";
import { GWEI_UNIT, moneyUnit, type ValueUnit } from "../text/valueUnit.ts";
import { roughDurationWords } from "../text/windowWords.ts";
import { useHourlyStats } from "./useHourlyStats.ts";

const LEVELS = 5;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const TIME_ZONE = new Intl.DateTimeFormat().resolvedOptions().timeZone;
const CLOCK = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const DAY_S = 86_400;

interface Props {
  readonly chainId: number;
  readonly chainName: string;
  /** GET /networks/{chainId}/hourlyStats: every hourly summary held, oldest first. */
  readonly fetchRows: (key: string, signal: AbortSignal, reuse: boolean) => Promise<HourlyStats>;
  /** The start (unix seconds) of the local hour of the newest block held (localHourStartSeconds): its cell is outlined. */
  readonly newestHourStartSeconds: number;
  /** The oldest block held (unix seconds), so that the map is asked again as the backfill reaches further back. */
  readonly oldestTime: number | null;
  readonly enabled: boolean;
  /** Set: each cell's median base fee as the cost of one action at the newest price (money); undefined: the base fee in Gwei. */
  readonly cost?: ChartCost | undefined;
}

/** "12.4 weeks", "2.1 days": how much time the summaries cover. */
function heldWords(days: number): string {
  return days >= 14 ? `${(Math.floor((days / 7) * 10) / 10).toLocaleString("en-US")} weeks` : roughDurationWords(days * DAY_S);
}

/** "12 weeks", "11 to 13 weeks": how many weeks the cells hold. */
function weeksWords(weeks: { fewest: number; most: number }): string {
  const plural = (count: number) => `${count} week${count === 1 ? "" : "s"}`;
  return weeks.fewest === weeks.most ? plural(weeks.most) : `${weeks.fewest} to ${plural(weeks.most)}`;
}

/**
 * An hour-of-week map of the chain's hourly summaries, every week held, in the reader's local time: a row per weekday
 * (Monday first), a cell per hour, each the median over its weeks of that hour's median base fee (saying how many weeks
 * it holds), coloured by its share of the week (five equal shares, cheapest green), empty where no week holds the hour;
 * and the cheapest and dearest hours in words.
 */
export const CheapestHours = memo(function CheapestHours({ chainId, chainName, fetchRows, newestHourStartSeconds, oldestTime, enabled, cost }: Props) {
  // Asked again with each new hour of blocks and as the backfill reaches another hour further back.
  const askAgainKey = `${chainId} ${newestHourStartSeconds} ${oldestTime === null ? "" : Math.floor(oldestTime / 3_600)}`;
  const entry = useHourlyStats(fetchRows, askAgainKey, enabled);
  // The newest price: the one in force at the newest hour and any since.
  const prices = usePriceHistory(cost, newestHourStartSeconds, enabled);
  const unit = useMemo(() => (cost === undefined ? GWEI_UNIT : moneyUnit(cost.currency)), [cost]);
  const price = prices.points?.at(-1)?.value;
  const gweiGrid = useMemo(() => (entry.rows === undefined ? undefined : placeHours(entry.rows)), [entry.rows]);
  const grid = useMemo(() => {
    if (cost === undefined || gweiGrid === undefined) return gweiGrid;
    return price === undefined ? undefined : priceCells(gweiGrid, cost.gas, price);
  }, [cost, gweiGrid, price]);
  const noPriceHeld = cost !== undefined && prices.points !== undefined && prices.points.length === 0;
  const error = entry.error ?? (cost === undefined ? undefined : prices.error);
  const days = entry.rows === undefined ? 0 : heldDays(entry.rows);
  return (
    <section
      className="heatmap-panel"
      aria-labelledby="heatmap-title"
      data-testid="heatmap"
      data-state={noPriceHeld ? "no-price" : grid ? "ready" : error ? "error" : "loading"}
      data-unit={unit.name}
    >
      <div className="heatmap-head">
        <h3 id="heatmap-title">Cheapest hours</h3>
        <span className="heatmap-sub" data-testid="heatmap-sub">
          {cost === undefined ? "each hour's median base fee, " : `what one ${cost.actionName} costs at each hour's median base fee, `}
          {entry.rows === undefined || entry.rows.length === 0
            ? "its median over the weeks held"
            : `its median over the ${heldWords(days)} of hourly summaries held`}
          {cost === undefined ? "," : `, at the newest price${price === undefined ? "" : ` (${unit.exact(price)})`}, without the tip or a rollup's L1 fee,`} in
          your time ({TIME_ZONE}) · {chainName}
        </span>
      </div>
      {noPriceHeld ? (
        <p className="heatmap-words" data-testid="heatmap-no-price">
          No {cost.currency} price of this chain&apos;s gas token is held, so its costs cannot be mapped. Choose &quot;base fee (Gwei)&quot; above to see the
          base fee.
        </p>
      ) : grid === undefined ? (
        <p className="heatmap-words">{error ? `Could not load the hourly summaries: ${error}. Retrying by itself.` : "Loading the hourly summaries…"}</p>
      ) : (
        <HeatGrid grid={grid} newestHourStartSeconds={newestHourStartSeconds} unit={unit} />
      )}
    </section>
  );
});

/** What a cell says of itself (its tooltip and its accessible label): when, its median, and how many weeks it holds. */
function cellWords(cell: HeatCell, unit: ValueUnit, now: boolean): string {
  const span = `${weekdayName(cell.weekday)} ${CLOCK.format(cell.newestStart * 1000)}–${CLOCK.format((cell.newestStart + 3_600) * 1000)}`;
  const value = unit.kind === "gwei" ? `median ${unit.exact(cell.gwei)}` : `${unit.exact(cell.money ?? String(cell.p50))} at the median ${cell.gwei} Gwei`;
  const sampled =
    cell.sampledWeeks === 0
      ? ""
      : cell.sampledWeeks === cell.weeks
        ? ", each from a sample of the hour's blocks"
        : `, ${cell.sampledWeeks} of them from a sample of the hour's blocks`;
  return `${span}${now ? " (the newest hour's)" : ""}: ${value} over ${cell.weeks} week${cell.weeks === 1 ? "" : "s"}${sampled}`;
}

const HeatGrid = memo(function HeatGrid({ grid, newestHourStartSeconds, unit }: { grid: Grid; newestHourStartSeconds: number; unit: ValueUnit }) {
  const { bounds, extremes, filled, weeks } = useMemo(() => {
    const cells = filledCells(grid);
    return { bounds: levelBounds(cells, LEVELS), extremes: weekExtremes(grid), filled: cells.length, weeks: weeksPerCell(grid) };
  }, [grid]);
  const newest = new Date(newestHourStartSeconds * 1000);
  return (
    <>
      <div
        className="heatmap"
        role="group"
        aria-label={`${unit.kind === "gwei" ? "Median base fee" : "Cost"} by weekday and hour over the weeks held (the cheapest and dearest hours are named below)`}
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
            <div className="heat-day" aria-hidden="true">
              {weekdayName(weekday)}
            </div>
            {HOURS.map((hour) => {
              const cell = grid[weekday]![hour];
              const now = newest.getDay() === weekday && newest.getHours() === hour;
              if (cell === undefined) {
                const words = `${weekdayName(weekday)} ${hourName(hour)}: no hour held`;
                return (
                  <div
                    key={hour}
                    className="heat-cell heat-empty"
                    data-testid={`heat-${weekday}-${hour}`}
                    data-weeks={0}
                    role="img"
                    aria-label={words}
                    title={words}
                  />
                );
              }
              const level = levelOf(cell.p50, bounds);
              const words = cellWords(cell, unit, now);
              return (
                <div
                  key={hour}
                  className={`heat-cell heat-level-${level}${now ? " heat-now" : ""}`}
                  data-testid={`heat-${weekday}-${hour}`}
                  data-value={cell.gwei}
                  data-level={level}
                  data-weeks={cell.weeks}
                  role="img"
                  aria-label={words}
                  title={words}
                />
              );
            })}
          </div>
        ))}
      </div>
      <HeatLegend bounds={bounds} unit={unit} />
      {weeks === undefined ? null : (
        <p className="heat-weeks" data-testid="heat-weeks" data-fewest={weeks.fewest} data-most={weeks.most}>
          {weeks.most === 1
            ? "Each cell holds one week so far: its hour's median base fee that day, not yet a median over weeks."
            : `Each cell is the median of that hour over ${weeksWords(weeks)} held${weeks.fewest === weeks.most ? "" : " (hover a cell for its own count)"}.`}
          {weeks.most < 4 ? " With so few weeks, one busy day still colours its hours." : ""}
        </p>
      )}
      <p className="heatmap-words" data-testid="cheapest-hours">
        {filled === 0 ? (
          "No hourly summaries held yet: the map fills in as the service keeps history."
        ) : extremes === undefined ? (
          `Only ${filled} hour${filled === 1 ? "" : "s"} of the week held so far: the cheapest and dearest hours are named once ${MIN_HOURS_TO_NAME} are, and the map fills in as the service keeps history.`
        ) : (
          <>
            <strong>Cheapest:</strong> <Stretches kind="cheapest" stretches={extremes.cheapest} unit={unit} />. <strong>Dearest:</strong>{" "}
            <Stretches kind="dearest" stretches={extremes.dearest} unit={unit} />.
            {filled < 24 ? ` Only ${filled} hours of the week held so far: the map fills in as the service keeps history.` : ""}
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
        no hour held
      </li>
    </ul>
  );
}
