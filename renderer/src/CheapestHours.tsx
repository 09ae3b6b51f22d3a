import { memo, useMemo } from "react";
import { shortGwei } from "../../shared/core/text/shortGwei.ts";
import type { BaseFeeStatsBucket } from "../../shared/wire/baseFeeStats.ts";
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
import type { StatsStore } from "./statsStore.ts";
import { bucketTimeSpan } from "./timeSpanWords.ts";
import { useBaseFeeStats } from "./useBaseFeeStats.ts";
import "./heatmap.css";
import { blockNumber } from "./format.ts";
import { type HeldTimes, heldByAnswer, lastSpanWords } from "./windowWords.ts";

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
}

/**
 * An hour-of-week map of the median base fee over the last 7 days, in the reader's local time: a row per weekday
 * (Monday first), a cell per hour, coloured by its share of the week (five equal shares, cheapest green), empty where
 * no blocks are held; and the cheapest and dearest hours in words.
 */
export const CheapestHours = memo(function CheapestHours({ store, chainId, chainName, newestHourStartSeconds, history, enabled }: Props) {
  const request = hourOfWeekRequest(newestHourStartSeconds);
  const entry = useBaseFeeStats(store, chainId, request, REFRESH_MS, enabled);
  const weekWords = lastSpanWords(WEEK_S, heldByAnswer(entry.heldFromSeconds, history));
  return (
    <section
      className="heatmap-panel"
      aria-labelledby="heatmap-title"
      data-testid="heatmap"
      data-state={entry.buckets ? "ready" : entry.error ? "error" : "loading"}
    >
      <div className="heatmap-head">
        <h3 id="heatmap-title">Cheapest hours</h3>
        <span className="heatmap-sub">
          median base fee of each hour over {weekWords}, in your time ({TIME_ZONE}) · {chainName}
        </span>
      </div>
      {entry.buckets === undefined ? (
        <p className="heatmap-words">{entry.error ? `Could not load the last 7 days: ${entry.error}. Retrying by itself.` : "Loading the last 7 days…"}</p>
      ) : (
        <HeatGrid buckets={entry.buckets} newestHourStartSeconds={newestHourStartSeconds} />
      )}
    </section>
  );
});

const HeatGrid = memo(function HeatGrid({ buckets, newestHourStartSeconds }: { buckets: readonly BaseFeeStatsBucket[]; newestHourStartSeconds: number }) {
  const { grid, bounds, extremes, filled } = useMemo(() => {
    const placed = placeHours(buckets);
    const cells = filledCells(placed);
    return { grid: placed, bounds: levelBounds(cells, LEVELS), extremes: weekExtremes(placed), filled: cells.length };
  }, [buckets]);
  return (
    <>
      <div
        className="heatmap"
        role="img"
        aria-label="Median base fee by weekday and hour (the cheapest and dearest hours are named below)"
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
                  title={`${bucketTimeSpan(cell.bucket.start, cell.bucket.end)}${now ? " (the newest hour)" : ""}: median ${cell.bucket.p50} Gwei over ${blockNumber(cell.bucket.blocks)} blocks`}
                />
              );
            })}
          </div>
        ))}
      </div>
      <HeatLegend bounds={bounds} />
      <p className="heatmap-words" data-testid="cheapest-hours">
        {filled === 0 ? (
          "No blocks held in the last 7 days yet: the map fills in as the service keeps history."
        ) : extremes === undefined ? (
          `Only ${filled} hour${filled === 1 ? "" : "s"} held so far: the cheapest and dearest hours are named once ${MIN_HOURS_TO_NAME} are, and the map fills in as the service keeps history.`
        ) : (
          <>
            <strong>Cheapest:</strong> <Stretches kind="cheapest" stretches={extremes.cheapest} />. <strong>Dearest:</strong>{" "}
            <Stretches kind="dearest" stretches={extremes.dearest} />.
            {filled < 24 ? ` Only ${filled} hour${filled === 1 ? "" : "s"} held so far: the map fills in as the service keeps history.` : ""}
          </>
        )}
      </p>
    </>
  );
});

/** "Sun 2 AM–5 AM (about 12.3 Gwei), Sat 3 AM–4 AM (13)": each stretch with its mean median, the unit named once. */
function Stretches({ kind, stretches }: { kind: "cheapest" | "dearest"; stretches: readonly Stretch[] }) {
  return stretches.map((stretch, index) => (
    <span
      key={`${stretch.weekday} ${stretch.fromHour}`}
      data-testid={`${kind}-stretch`}
      data-weekday={stretch.weekday}
      data-from-hour={stretch.fromHour}
      data-to-hour={stretch.toHour}
    >
      {index === 0 ? "" : ", "}
      {stretchName(stretch)} ({index === 0 ? `about ${shortGwei(String(stretch.meanP50))} Gwei` : shortGwei(String(stretch.meanP50))})
    </span>
  ));
}

function HeatLegend({ bounds }: { bounds: readonly number[] }) {
  if (bounds.length === 0) return null;
  return (
    <ul className="heat-legend" data-testid="heat-legend" aria-label="Colours">
      {bounds.map((bound, level) => {
        const from = level === 0 ? undefined : bounds[level - 1]!;
        // Levels whose bound equals the one below hold no cell (a week at one fee): not listed.
        if (from === bound) return null;
        const words = from === undefined ? `≤ ${shortGwei(String(bound))}` : `${shortGwei(String(from))} – ${shortGwei(String(bound))}`;
        return (
          <li key={level}>
            <span className={`heat-swatch heat-level-${level}`} aria-hidden="true" />
            {words}
          </li>
        );
      })}
      <li className="heat-legend-unit">Gwei</li>
      <li>
        <span className="heat-swatch heat-empty" aria-hidden="true" />
        no blocks held
      </li>
    </ul>
  );
}
