import { useState } from "react";
import { failureMessage, type SettingsBridge, unwrap } from "./settingsClient.ts";

/**
 * The dashboard's token: the credential this window (and the address `npm run serve` prints) opens the dashboard
 * with. Rotating it refuses the old one at once; the main process then reloads this window with the new one.
 */
export function DashboardTokenSection({ bridge, onError }: { bridge: SettingsBridge; onError: (message: string | undefined) => void }) {
  const [rotating, setRotating] = useState(false);
  const rotate = async () => {
    if (!window.confirm("Rotate the dashboard's token? Every dashboard address that carries the old token stops working at once.")) return;
    setRotating(true);
    try {
      unwrap(await bridge.rotateDashboardToken());
      // The window reloads with the new token: nothing more to do here.
    } catch (error) {
      setRotating(false);
      onError(failureMessage(error));
    }
  };
  return (
    <section className="settings-section" data-testid="settings-dashboard-token">
      <h3>Dashboard token</h3>
      <p className="settings-hint">
        The dashboard opens with a token of its own, kept in the settings file, so that its address (<code>/?token=…</code>, which <code>npm run serve</code>{" "}
        prints) stays the same across restarts. It is not an API key. If an address with it was shared or leaked, rotate it: the old token is refused at once,
        and this window reloads with the new one.
      </p>
      <div className="settings-actions">
        <button type="button" className="settings-danger" disabled={rotating} onClick={() => void rotate()} data-testid="dashboard-token-rotate">
          {rotating ? "Rotating…" : "Rotate the dashboard token"}
        </button>
      </div>
    </section>
  );
}
