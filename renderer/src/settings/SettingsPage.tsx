import { useCallback, useEffect, useState } from "react";
import { AlertsSection } from "./AlertsSection.tsx";
import { ApiKeysSection } from "./ApiKeysSection.tsx";
import { ChainsSection } from "./ChainsSection.tsx";
import { CostsSection } from "./CostsSection.tsx";
import { DashboardTokenSection } from "./DashboardTokenSection.tsx";
import {
  type NotificationSettings,
  type SettingsBridge,
  type SettingsPatch,
  type SettingsRefusal,
  type SettingsSectionProps,
  type SettingsView,
  failureMessage,
  unwrap,
} from "./settingsClient.ts";
import "./settings.css";

/**
 * The desktop app's settings, stored by the main process (validated there as a whole; its messages are shown as they
 * are). `onSaved` is told after each change it stored.
 */
export function SettingsPage({ bridge, onClose, onSaved }: { bridge: SettingsBridge; onClose: () => void; onSaved?: () => void }) {
  const [view, setView] = useState<SettingsView | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    let live = true;
    bridge.get().then(
      (initial) => live && setView(initial),
      (failure: Error) => setError(failure.message),
    );
    const stop = bridge.onChange((next) => setView(next));
    return () => {
      live = false;
      stop();
    };
  }, [bridge]);

  /** Stores a change; resolves with the main process's refusal, or undefined once stored. */
  const store = useCallback(
    async (patch: SettingsPatch): Promise<SettingsRefusal | undefined> => {
      try {
        const result = await bridge.update(patch);
        if (!result.ok) return { message: result.error, alertProblems: result.alertProblems };
        setView(result.value);
        setSaved(true);
        window.setTimeout(() => setSaved(false), 1500);
        onSaved?.();
        return undefined;
      } catch (failure) {
        // The bridge refused the call itself (its arguments, its sender): words only.
        return { message: failureMessage(failure), alertProblems: [] };
      }
    },
    [bridge, onSaved],
  );
  const save = useCallback(
    async (patch: SettingsPatch): Promise<boolean> => {
      const refusal = await store(patch);
      setError(refusal?.message);
      return refusal === undefined;
    },
    [store],
  );
  // The alerts section shows a refusal beside the rule it is about, not at the top of the page.
  const saveAlerts = useCallback((alerts: unknown[]) => store({ alerts }), [store]);

  if (view === undefined) return <main className="placeholder">{error ?? "Loading the settings…"}</main>;
  return (
    <main className="settings" data-testid="settings-page">
      <div className="settings-head">
        <h2>Settings</h2>
        <span className="settings-saved" aria-live="polite">
          {saved ? "Saved" : ""}
        </span>
        <button type="button" onClick={onClose} data-testid="settings-close">
          Back to the dashboard
        </button>
      </div>
      {view.notice && (
        <p className="banner settings-warning" role="alert" data-testid="settings-notice">
          {view.notice}
        </p>
      )}
      <ServiceBanner view={view} bridge={bridge} onView={setView} onError={setError} />
      {error && (
        <p className="banner settings-error" role="alert" data-testid="settings-error">
          {error}
        </p>
      )}
      <GeneralSection view={view} onSave={save} />
      <NotificationsSection view={view} onSave={save} />
      <AlertsSection view={view} onSave={saveAlerts} />
      <CostsSection view={view} onSave={save} />
      {/* Keyed by the stored chains, so that the drafts start again from what was saved after each change. */}
      <ChainsSection key={JSON.stringify(view.settings.chains ?? view.defaultChains)} view={view} onSave={(chains) => save({ chains })} />
      <ApiKeysSection view={view} bridge={bridge} onView={setView} onError={setError} />
      <DashboardTokenSection bridge={bridge} onError={setError} />
      <p className="settings-hint">
        Stored in <code>{view.settingsPath}</code>, which <code>npm run serve</code> reads too.
      </p>
    </main>
  );
}

function ServiceBanner({ view, bridge, onView, onError }: SettingsSectionProps) {
  const { service } = view;
  const chooseFreePort = async () => {
    try {
      onView(unwrap(await bridge.useFreePort()));
    } catch (failure) {
      onError(failureMessage(failure));
    }
  };
  if (service.state === "running") {
    return (
      <p className="settings-hint" data-testid="service-state" data-state="running">
        The local API is serving at <code>{service.url}</code>.
      </p>
    );
  }
  if (service.state === "port-in-use") {
    return (
      <div className="banner settings-warning" role="alert" data-testid="service-state" data-state="port-in-use">
        <p>{service.message}</p>
        <button type="button" onClick={() => void chooseFreePort()}>
          Use a free port
        </button>
      </div>
    );
  }
  const words = { stopped: "stopped", starting: "starting…", paused: "paused (resume it from the tray menu)" } as const;
  return (
    <p className="banner settings-warning" data-testid="service-state" data-state={service.state}>
      {service.state === "failed" ? service.message : `The local API is ${words[service.state]}.`}
    </p>
  );
}

function GeneralSection({ view, onSave }: { view: SettingsView; onSave: (patch: SettingsPatch) => Promise<boolean> }) {
  const chains = view.settings.chains ?? view.defaultChains;
  return (
    <section className="settings-section" data-testid="settings-general">
      <h3>General</h3>
      {/* Keyed by the stored port, so that the field starts again from it after each change. */}
      <PortForm key={view.settings.port} storedPort={view.settings.port} onSave={onSave} />
      <div className="settings-actions">
        <label className="settings-check">
          <input type="checkbox" checked={view.settings.startAtLogin} onChange={(event) => void onSave({ startAtLogin: event.target.checked })} />
          Start at login (in the tray, without a window)
        </label>
        <label>
          Theme
          <select value={view.settings.theme} onChange={(event) => void onSave({ theme: event.target.value as SettingsView["settings"]["theme"] })}>
            <option value="system">Same as the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <label>
          Chain shown in the tray
          <select
            value={view.settings.trayChainId ?? ""}
            onChange={(event) => void onSave({ trayChainId: event.target.value === "" ? null : Number(event.target.value) })}
          >
            <option value="">The first chain</option>
            {chains.map((chain) => (
              <option key={chain.chainId} value={chain.chainId}>
                {chain.name ?? `Chain ${chain.chainId}`}
              </option>
            ))}
          </select>
        </label>
      </div>
    </section>
  );
}

function PortForm({ storedPort, onSave }: { storedPort: number; onSave: (patch: SettingsPatch) => Promise<boolean> }) {
  const [port, setPort] = useState(String(storedPort));
  return (
    <form
      className="settings-actions"
      onSubmit={(event) => {
        event.preventDefault();
        void onSave({ port: Number(port.trim()) });
      }}
    >
      <label>
        Port of the local API
        <input inputMode="numeric" value={port} onChange={(event) => setPort(event.target.value)} data-testid="port-input" />
      </label>
      <button type="submit" disabled={port.trim() === String(storedPort)} data-testid="port-save">
        Change port
      </button>
      <span className="settings-hint">The API restarts on the new port; tools must use the new address.</span>
    </form>
  );
}

function NotificationsSection({ view, onSave }: { view: SettingsView; onSave: (patch: SettingsPatch) => Promise<boolean> }) {
  const notifications = view.settings.notifications;
  const chains = view.settings.chains ?? view.defaultChains;
  const set = (change: Partial<NotificationSettings>) => void onSave({ notifications: { ...notifications, ...change } });
  const number = (field: "enterAfterBlocks" | "enterMarginPercent" | "calmAfterBlocks" | "cooldownMinutes", text: string) => {
    const value = Number(text);
    if (text.trim() !== "" && Number.isFinite(value)) set({ [field]: value });
  };
  const muted = new Set(notifications.mutedChainIds);
  return (
    <section className="settings-section" data-testid="settings-notifications">
      <h3>Notifications</h3>
      <label className="settings-check">
        <input
          type="checkbox"
          checked={notifications.enabled}
          onChange={(event) => set({ enabled: event.target.checked })}
          data-testid="notifications-enabled"
        />
        Tell me when a chain gets busy (its base fee above its busy threshold) and when it calms down
      </label>
      <p className="settings-hint" data-testid="notifications-built-in-hint">
        These two are built-in alert rules of every chain (busy: above its busy threshold, calm: back at or below it), with the hysteresis below. Add rules of
        your own under Alerts.
      </p>
      <div className="settings-chain-toggles">
        {chains.map((chain) => (
          <label className="settings-check" key={chain.chainId}>
            <input
              type="checkbox"
              disabled={!notifications.enabled}
              checked={!muted.has(chain.chainId)}
              onChange={(event) =>
                set({
                  mutedChainIds: event.target.checked
                    ? notifications.mutedChainIds.filter((id) => id !== chain.chainId)
                    : [...notifications.mutedChainIds, chain.chainId],
                })
              }
            />
            {chain.name ?? `Chain ${chain.chainId}`}
          </label>
        ))}
      </div>
      <div className="settings-actions">
        <label>
          Busy after (blocks in a row)
          <input
            type="number"
            min={1}
            max={100}
            defaultValue={notifications.enterAfterBlocks}
            onBlur={(event) => number("enterAfterBlocks", event.target.value)}
          />
        </label>
        <label>
          …or at once above the threshold by (%)
          <input
            type="number"
            min={0}
            max={1000}
            defaultValue={notifications.enterMarginPercent}
            onBlur={(event) => number("enterMarginPercent", event.target.value)}
          />
        </label>
        <label>
          Calm after (blocks in a row)
          <input
            type="number"
            min={1}
            max={1000}
            defaultValue={notifications.calmAfterBlocks}
            onBlur={(event) => number("calmAfterBlocks", event.target.value)}
          />
        </label>
        <label>
          At most one per chain every (minutes)
          <input
            type="number"
            min={0}
            max={1440}
            defaultValue={notifications.cooldownMinutes}
            onBlur={(event) => number("cooldownMinutes", event.target.value)}
          />
        </label>
      </div>
    </section>
  );
}
