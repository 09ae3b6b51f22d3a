import { memo } from "react";
import { shortGwei } from "../../../shared/core/text/shortGwei.ts";
import { type AlertRow, chainAlertsOf } from "./alertRows.ts";
import type { AlertsState } from "../live/alertsFeed.ts";
import type { AlertRuleProblem } from "../live/dataClient.ts";
import { blockNumber, clockTime } from "../text/format.ts";
import "./alerts.css";

interface Props {
  readonly alerts: AlertsState;
  readonly chainId: number;
  readonly chainName: string;
  /** In the desktop app, rules are edited on its settings page; in a browser, in settings.json. */
  readonly desktop: boolean;
}

const DAY_MS = 86_400_000;
const DATE_TIME = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });

/**
 * The chain's alert rules (`GET /alerts`): each one's condition, whether it is armed or firing (or why it is paused),
 * and when it last fired; rules the settings hold but the service refused, with why. Nothing while the service has
 * no alerts.
 */
export const AlertsPanel = memo(function AlertsPanel({ alerts, chainId, chainName, desktop }: Props) {
  if (alerts.kind !== "known") return null;
  const { rows, builtInsOn } = chainAlertsOf(alerts.body, chainId);
  const where = desktop ? (
    <>Settings → Alerts</>
  ) : (
    <>
      <code>alerts</code> in settings.json
    </>
  );
  return (
    <section className="alerts-panel" aria-labelledby="alerts-title" data-testid="alerts-panel">
      <div className="alerts-head">
        <h3 id="alerts-title">Alerts</h3>
        <span className="alerts-sub">
          {chainName} · rules are set in {where}
          {builtInsOn === undefined ? "" : ` · busy/calm notifications ${builtInsOn ? "on" : "off"}`}
        </span>
      </div>
      {rows.length === 0 ? (
        <p className="alerts-none" data-testid="alerts-none">
          No alert rules of your own for {chainName}: add one in {where} to be told when its base fee is below or above a value.
        </p>
      ) : (
        <table className="alerts-table">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Condition</th>
              <th scope="col">State</th>
              <th scope="col">Last fired</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <AlertRowView key={row.id} row={row} />
            ))}
          </tbody>
        </table>
      )}
      {alerts.body.problems.length > 0 ? <Problems problems={alerts.body.problems} /> : null}
    </section>
  );
});

function AlertRowView({ row }: { row: AlertRow }) {
  return (
    <tr data-testid="alert-row" data-rule={row.id} data-state={row.state}>
      <td>
        {row.name}
        {row.name !== row.id ? <span className="alerts-id"> {row.id}</span> : null}
      </td>
      <td>{row.condition}</td>
      <td>
        <span className={`alert-state alert-state-${row.state}`} data-testid="alert-state">
          {row.stateWords}
        </span>
        {row.heldBackUntil === undefined ? null : <span className="alerts-note"> held back by its cooldown until {clockTime(row.heldBackUntil)}</span>}
      </td>
      <td data-testid="alert-last-fired">
        {row.lastFired === undefined ? (
          <span className="alerts-note">never</span>
        ) : (
          <span title={`block ${row.lastFired.block}, ${row.lastFired.baseFee} Gwei`}>
            {firedTime(row.lastFired.atMs)} at {shortGwei(row.lastFired.baseFee)} Gwei
            <span className="alerts-note"> (block {blockNumber(row.lastFired.block)})</span>
          </span>
        )}
        {row.webhook === undefined ? null : (
          <span className={`alerts-webhook${row.webhook.failing ? " alerts-webhook-failing" : ""}`} title={row.webhook.failing}>
            webhook {row.webhook.shown}
            {row.webhook.failing ? ": last delivery failed" : ""}
          </span>
        )}
      </td>
    </tr>
  );
}

function Problems({ problems }: { problems: readonly AlertRuleProblem[] }) {
  return (
    <div className="alerts-problems" role="note" data-testid="alerts-problems">
      Not running, because the settings refused {problems.length === 1 ? "it" : "them"}:
      <ul>
        {problems.map((problem) => (
          <li key={`${problem.rule} ${problem.field}`}>
            rule <code>{problem.rule}</code>, {problem.field}: {problem.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Today's time as the clock shows it, an older one with its date. */
function firedTime(atMs: number): string {
  return Date.now() - atMs < DAY_MS / 2 ? clockTime(atMs) : DATE_TIME.format(atMs);
}
