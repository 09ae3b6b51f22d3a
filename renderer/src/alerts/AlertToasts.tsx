import { useEffect, useState } from "react";
import type { FiredAlert } from "../live/alertsFeed.ts";
import { clockTime } from "../text/format.ts";
import "./alerts.css";

/** How long a toast stays unless closed. */
const TOAST_MS = 12_000;

/**
 * The alerts fired while the page is open (`event: alert`), each as a toast in the corner for a few seconds, in the
 * sentence the desktop notification says. Alerts fired before the page opened are in the alerts list only.
 */
export function AlertToasts({ fired }: { fired: readonly FiredAlert[] }) {
  const [hidden, setHidden] = useState<ReadonlySet<number>>(() => new Set());
  const shown = fired.filter((alert) => !hidden.has(alert.seq));
  useEffect(() => {
    const hide = (seq: number) => setHidden((previous) => new Set(previous).add(seq));
    const timers = fired
      .filter((alert) => !hidden.has(alert.seq))
      .map((alert) => window.setTimeout(() => hide(alert.seq), Math.max(0, alert.receivedAt + TOAST_MS - Date.now())));
    return () => timers.forEach((timer) => window.clearTimeout(timer));
  }, [fired, hidden]);
  if (shown.length === 0) return null;
  return (
    <div className="alert-toasts" role="status" aria-live="polite">
      {shown.map(({ seq, event, receivedAt }) => (
        <div key={seq} className={`alert-toast alert-toast-${event.when}`} data-testid="alert-toast" data-rule={event.ruleId}>
          <div className="alert-toast-text">
            <strong>Alert</strong> {event.text}
            <span className="alert-toast-time"> {clockTime(receivedAt)}</span>
          </div>
          <button type="button" className="small" aria-label="Close this alert" onClick={() => setHidden((previous) => new Set(previous).add(seq))}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
