import { memo, useCallback, useEffect, useMemo, useState, type FormEvent } from "react";
import type { Costs } from "../../../shared/wire/costs.ts";
import { type OutlookBody, OUTLOOK_NEEDED_DAYS } from "../../../shared/wire/outlook.ts";
import { hoursAsDuration } from "../../../shared/core/outlook/outlookFigures.ts";
import { useStoredChoice } from "../chart/useStoredChoice.ts";
import "../chart/chartToolbar.css";
import { type OutlookQuery, outlookQueryString, type OutlookThreshold } from "../live/outlookRequest.ts";
import { blockNumber } from "../text/format.ts";
import { GWEI_UNIT, moneyUnit } from "../text/valueUnit.ts";
import { type OutlookMoney, outlookMoneyOf, shownValueOf, thresholdOfInput, unitName } from "./outlookMoney.ts";
import type { OutlookStore } from "./outlookStore.ts";
import {
  chanceText,
  horizonOf,
  horizonText,
  notEnoughWords,
  OUTLOOK_HORIZONS,
  type OutlookHorizon,
  pointsText,
  reliabilityPoints,
  ribbonRows,
  trackRecordWords,
} from "./outlookView.ts";
import { OutlookRibbon } from "./OutlookRibbon.tsx";
import { ReliabilityChart } from "./ReliabilityChart.tsx";
import { useOutlook } from "./useOutlook.ts";
import "./outlook.css";

/** Asked again with each new block, at most this often: the demo's 2 s blocks each, a fast chain's every 2 s. */
const OUTLOOK_EVERY_MS = 2_000;
/** A typed price is asked for once the typing has paused this long (or at once with Enter). */
const TYPING_PAUSE_MS = 600;
const HORIZON_KEY = "gasfees.outlookWithin";

interface Props {
  readonly store: OutlookStore;
  readonly chainId: number;
  readonly chainName: string;
  /** The chain's newest block: each is a new outlook. */
  readonly newestBlock: string | null;
  /** False while the service does not answer: nothing is asked, the last answers stay. */
  /** The chain's hourly summaries held (its status' `history.summaries.hours`). */
  readonly summaryHours: number;
  readonly enabled: boolean;
  /** The chain's costs (for the shown action's money), undefined while not known. */
  readonly costs: Costs | undefined;
  /** The action chosen in "Show"; undefined: the base fee in Gwei. */
  readonly shownAction: string | undefined;
}

/**
 * "Wait or pay now": what the shown action (or the base fee) costs now, the lowest cost likely within the next hours
 * (p10 to p90 over 1 to 24 h), the chance of reaching a price the user types, and the outlook's track record.
 */
export const OutlookPanel = memo(function OutlookPanel({ store, chainId, chainName, newestBlock, summaryHours, enabled, costs, shownAction }: Props) {
  // Before 14 days of summaries the service can only answer NOT_ENOUGH_HISTORY: the chain's status says so already,
  // so nothing is asked (and no 422 is logged per block and horizon) until the summaries held reach it.
  const enoughHistory = summaryHours >= OUTLOOK_NEEDED_DAYS * 24;
  const money = useMemo(() => outlookMoneyOf(costs, shownAction), [costs, shownAction]);
  const [horizon, setHorizon] = useStoredChoice<`${OutlookHorizon}`>(HORIZON_KEY, (stored) => `${horizonOf(stored)}`);
  const hours = Number(horizon) as OutlookHorizon;
  const unit = unitName(money);
  const moneyKey = money.kind === "money" ? `${money.currency} ${money.actionId}` : "gwei";
  const currency = money.kind === "money" ? money.currency : undefined;
  const valueUnit = useMemo(() => (currency === undefined ? GWEI_UNIT : moneyUnit(currency)), [currency]);
  // The typed price and the threshold asked belong to the unit they were typed in: in another (Show changed, a price
  // came or went) they meant something else, and the field starts empty.
  const [typedIn, setTypedIn] = useState({ moneyKey, text: "" });
  const [thresholdIn, setThresholdIn] = useState<{ moneyKey: string; threshold: OutlookThreshold | undefined }>({ moneyKey, threshold: undefined });
  const typed = typedIn.moneyKey === moneyKey ? typedIn.text : "";
  const threshold = thresholdIn.moneyKey === moneyKey ? thresholdIn.threshold : undefined;
  const setThreshold = useCallback((next: OutlookThreshold | undefined) => setThresholdIn({ moneyKey, threshold: next }), [moneyKey]);
  const read = thresholdOfInput(typed, money);
  const problem = "problem" in read ? read.problem : undefined;
  const thresholdKey = JSON.stringify(threshold ?? null);
  const readKey = "threshold" in read ? JSON.stringify(read.threshold ?? null) : undefined;
  useEffect(() => {
    if (readKey === undefined || readKey === thresholdKey) return;
    const timer = window.setTimeout(() => setThreshold((JSON.parse(readKey) as OutlookThreshold | null) ?? undefined), TYPING_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [readKey, thresholdKey, setThreshold]);
  const queries = useMemo<OutlookQuery[]>(() => OUTLOOK_HORIZONS.map((withinHours) => ({ withinHours, threshold })), [threshold]);
  const entries = useOutlook(store, chainId, newestBlock, queries, OUTLOOK_EVERY_MS, enabled && enoughHistory);
  const selected = entries[OUTLOOK_HORIZONS.indexOf(hours)]!;
  const answers = useMemo(() => {
    const held = new Map<number, OutlookBody>();
    entries.forEach((entry, index) => {
      if (entry.answer?.kind === "outlook") held.set(OUTLOOK_HORIZONS[index]!, entry.answer.body);
    });
    return held;
  }, [entries]);
  const rows = useMemo(() => ribbonRows(answers, money), [answers, money]);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if ("threshold" in read) setThreshold(read.threshold);
  };
  const answer: typeof selected.answer = enoughHistory
    ? selected.answer
    : { kind: "not-enough-history", held: hoursAsDuration(summaryHours), needed: `${OUTLOOK_NEEDED_DAYS}d`, message: "" };
  const state =
    answer?.kind === "not-enough-history" ? "not-enough-history" : answer?.kind === "outlook" ? "ready" : selected.error !== undefined ? "error" : "loading";
  return (
    <section className="outlook-panel" aria-labelledby={`outlook-title-${chainId}`} data-testid="outlook" data-state={state} data-unit={unit}>
      <div className="outlook-head">
        <h3 id={`outlook-title-${chainId}`}>Wait or pay now</h3>
        <span className="outlook-sub">
          {money.kind === "money" ? `one ${money.actionName} (medium tier) in ${money.currency}` : "the base fee in Gwei"}: now, and the lowest likely if you
          wait · {chainName}
        </span>
      </div>
      {money.kind === "gwei" && money.why !== undefined ? (
        <p className="panel-note" data-testid="outlook-no-price">
          {money.why}
        </p>
      ) : null}
      {answer?.kind === "not-enough-history" ? (
        <NotEnoughHistory held={answer.held} needed={answer.needed} chainName={chainName} />
      ) : answer?.kind !== "outlook" ? (
        <p className="outlook-words" data-testid="outlook-waiting">
          {selected.error !== undefined ? `Could not load the outlook: ${selected.error}. Retrying by itself.` : "Loading the outlook…"}
        </p>
      ) : (
        <>
          {selected.error !== undefined ? (
            <p className="panel-note" data-testid="outlook-stale">
              The outlook of block {blockNumber(selected.block ?? "")} is shown: asking again failed ({selected.error}).
            </p>
          ) : null}
          <div className="outlook-top">
            <NowAndLowest body={answer.body} money={money} hours={hours} />
            <HorizonSelector selected={hours} onSelect={(next) => setHorizon(`${next}`)} />
          </div>
          <form className="outlook-chance" onSubmit={onSubmit} data-testid="outlook-chance-form">
            <label htmlFor={`outlook-price-${chainId}`}>Chance it gets to</label>
            <span className="outlook-input">
              <input
                id={`outlook-price-${chainId}`}
                data-testid="outlook-price"
                inputMode="decimal"
                autoComplete="off"
                placeholder={placeholderOf(answer.body, money)}
                value={typed}
                aria-invalid={problem !== undefined}
                aria-describedby={problem !== undefined ? `outlook-price-problem-${chainId}` : undefined}
                onChange={(event) => setTypedIn({ moneyKey, text: event.target.value })}
              />
              <span className="outlook-input-unit">{unit}</span>
            </span>
            <span>or less within {horizonText(hours)}:</span>
            <Chance
              body={answer.body}
              answersThreshold={selected.question === outlookQueryString({ withinHours: hours, threshold })}
              threshold={threshold}
              typed={typed}
              problem={problem}
              money={money}
            />
            {problem !== undefined ? (
              <span className="outlook-problem" id={`outlook-price-problem-${chainId}`} role="alert">
                {problem}
              </span>
            ) : null}
          </form>
          <div className="outlook-charts">
            <figure className="outlook-figure">
              <figcaption>Lowest likely within each horizon ({unit}): p10–p90 shaded, p50 the line, now dashed</figcaption>
              <div className="outlook-chart" data-testid="outlook-ribbon" data-horizons={answers.size}>
                <OutlookRibbon rows={rows} now={shownValueOf(money, answer.body.at.baseFee)} selected={hours} unit={valueUnit} />
              </div>
            </figure>
            <TrackRecord body={answer.body} hours={hours} />
          </div>
        </>
      )}
    </section>
  );
});

/** The placeholder of the price input: a round figure below now, as an example. */
function placeholderOf(body: OutlookBody, money: OutlookMoney): string {
  const now = shownValueOf(money, body.lowest.p50).value;
  if (!(now > 0)) return money.kind === "money" ? "1.00" : "10";
  const digits = money.kind === "money" ? (now >= 10 ? 0 : now >= 0.1 ? 2 : 4) : now >= 10 ? 0 : now >= 1 ? 1 : 3;
  return `e.g. ${now.toFixed(digits)}`;
}

function NowAndLowest({ body, money, hours }: { body: OutlookBody; money: OutlookMoney; hours: number }) {
  const now = shownValueOf(money, body.at.baseFee);
  const p10 = shownValueOf(money, body.lowest.p10);
  const p50 = shownValueOf(money, body.lowest.p50);
  const p90 = shownValueOf(money, body.lowest.p90);
  return (
    <div className="outlook-figures">
      <div className="card outlook-card">
        <div className="card-label">Now</div>
        <div className="card-value" data-testid="outlook-now" data-value={body.at.baseFee} title={now.exact}>
          {now.short}
        </div>
        <span className="card-sub">
          {money.kind === "money" ? `at base fee ${shortFee(body.at.baseFee)}` : "base fee"} · block {blockNumber(body.at.block)}
        </span>
      </div>
      <div className="card outlook-card">
        <div className="card-label">Lowest likely within {horizonText(hours)}</div>
        <div className="card-value" data-testid="outlook-p50" data-value={body.lowest.p50} title={`p50: ${p50.exact}`}>
          {p50.short}
        </div>
        <span className="card-sub" data-testid="outlook-range" title={`p10: ${p10.exact}\np90: ${p90.exact}`}>
          8 in 10 between {p10.short} and {p90.short}
        </span>
      </div>
    </div>
  );
}

function shortFee(gwei: string): string {
  return shownValueOf({ kind: "gwei", why: undefined }, gwei).short;
}

/** The horizon: one radio group of segments, like the chart's range. */
function HorizonSelector({ selected, onSelect }: { selected: OutlookHorizon; onSelect: (hours: OutlookHorizon) => void }) {
  return (
    <div className="outlook-horizon">
      <span className="outlook-horizon-label" id="outlook-horizon-label">
        If you wait up to
      </span>
      <div className="range-selector" role="radiogroup" aria-labelledby="outlook-horizon-label" data-testid="outlook-horizons">
        {OUTLOOK_HORIZONS.map((hours) => {
          const checked = hours === selected;
          return (
            <button
              key={hours}
              type="button"
              role="radio"
              aria-checked={checked}
              tabIndex={checked ? 0 : -1}
              className={`range-option${checked ? " range-option-current" : ""}`}
              data-testid={`outlook-within-${hours}`}
              onClick={() => onSelect(hours)}
              onKeyDown={(event) => {
                const step = event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 0;
                if (step === 0) return;
                event.preventDefault();
                const index = (OUTLOOK_HORIZONS.indexOf(hours) + step + OUTLOOK_HORIZONS.length) % OUTLOOK_HORIZONS.length;
                onSelect(OUTLOOK_HORIZONS[index]!);
                const group = event.currentTarget.parentElement;
                window.requestAnimationFrame(() => group?.querySelector<HTMLButtonElement>('[aria-checked="true"]')?.focus());
              }}
            >
              {horizonText(hours)}
            </button>
          );
        })}
      </div>
    </div>
  );
}

/** The chance of the typed price, once the answer is for it (the one shown may still be the previous price's). */
function Chance({
  body,
  answersThreshold,
  threshold,
  typed,
  problem,
  money,
}: {
  body: OutlookBody;
  /** Whether `body` answers `threshold` (not the previous price's, while the new answer is on its way). */
  answersThreshold: boolean;
  threshold: OutlookThreshold | undefined;
  typed: string;
  problem: string | undefined;
  money: OutlookMoney;
}) {
  if (problem !== undefined) return <strong className="outlook-chance-value">—</strong>;
  if (typed.trim() === "" || threshold === undefined) return <span className="outlook-chance-hint">type a price</span>;
  if (body.below === null || !answersThreshold) return <span className="outlook-chance-hint">asking…</span>;
  const at = shownValueOf(money, body.below.baseFee);
  return (
    <strong
      className="outlook-chance-value"
      data-testid="outlook-chance"
      data-probability={body.below.probability}
      title={`The chance that the lowest base fee within ${body.within} is at or below ${body.below.baseFee} Gwei${money.kind === "money" ? ` (${at.short} for one ${money.actionName})` : ""}`}
    >
      {chanceText(body.below.probability)}
      {money.kind === "money" ? <span className="outlook-chance-basis"> (base fee {shortFee(body.below.baseFee)} or less)</span> : null}
    </strong>
  );
}

function TrackRecord({ body, hours }: { body: OutlookBody; hours: number }) {
  const words = trackRecordWords(body.backtest, body.basis.hours, hours);
  const points = reliabilityPoints(body.backtest);
  const weeks = Math.round(body.basis.weeks * 10) / 10;
  return (
    <figure className="outlook-figure outlook-track" data-testid="outlook-track-record">
      <figcaption>Its track record within {horizonText(hours)}</figcaption>
      <div className="outlook-track-body">
        <div className="outlook-reliability-column">
          <div className="outlook-reliability" data-testid="outlook-reliability" data-points={points.length}>
            <ReliabilityChart points={points} />
          </div>
          <span className="outlook-reliability-note">
            A dot per tenth of its forecasts. Across: what it said; up: how often it happened. On the dashed diagonal, it was right.
          </span>
        </div>
        <div className="outlook-track-words">
          <p data-testid="outlook-track-headline">{words.headline}</p>
          {words.skill !== undefined ? <p data-testid="outlook-skill">{words.skill}</p> : null}
          {words.offByPoints !== undefined ? <p>On average, what it said was {pointsText(words.offByPoints)} from what happened.</p> : null}
          <p className="outlook-basis">
            From {weeks} week{weeks === 1 ? "" : "s"} of hourly summaries ({blockNumber(body.basis.hours)} hours
            {body.basis.sampledHours > 0 ? `, ${blockNumber(body.basis.sampledHours)} of them from a sample of their blocks` : ""}), replayed hour by hour with
            only what came before each forecast.
          </p>
        </div>
      </div>
    </figure>
  );
}

function NotEnoughHistory({ held, needed, chainName }: { held: string; needed: string; chainName: string }) {
  const words = notEnoughWords(held, needed);
  return (
    <div className="outlook-not-enough" data-testid="outlook-not-enough" data-held={held} data-needed={needed}>
      <p className="outlook-words">
        <strong>Not enough history yet.</strong> The outlook needs {words.needed} of hourly summaries of {chainName}; the service holds {words.held} so far.
        {words.toGo !== undefined ? ` It can answer in ${words.toGo}, sooner if the service is still fetching older blocks.` : ""}
      </p>
      {words.share !== undefined ? (
        <div className="outlook-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(words.share * 100)}>
          <div className="outlook-progress-bar" style={{ width: `${words.share * 100}%` }} />
        </div>
      ) : null}
    </div>
  );
}
