import { useCallback, useEffect, useMemo, useState, type FormEvent } from "react";
import { ApiPanel } from "./ApiPanel.tsx";
import { ChainSwitcher } from "./ChainSwitcher.tsx";
import { ChainView } from "./ChainView.tsx";
import { findConnection, forgetToken, rememberToken, type Connection } from "./connection.ts";
import { ApiCallError, createDataClient, type DataClient } from "./dataClient.ts";
import { useChainFeed, useNetworks } from "./useLiveData.ts";
import { SettingsPage } from "./settings/SettingsPage.tsx";

export function App() {
  const [connection, setConnection] = useState<Connection | undefined>(() => findConnection());
  const client = useMemo(() => (connection ? createDataClient(connection) : undefined), [connection]);
  if (client === undefined) return <KeyForm onKey={(token) => (rememberToken(token), setConnection(findConnection()))} />;
  return (
    <Dashboard
      client={client}
      onKeyRefused={() => {
        forgetToken();
        setConnection(undefined);
      }}
    />
  );
}

function chainFromHash(): number | undefined {
  const match = /^#chain=(\d+)$/.exec(window.location.hash);
  return match ? Number(match[1]) : undefined;
}

function Dashboard({ client, onKeyRefused }: { client: DataClient; onKeyRefused: () => void }) {
  const { networks, error } = useNetworks(client);
  const [selected, setSelected] = useState<number | undefined>(chainFromHash);
  const chainId = selected !== undefined && networks?.some((network) => network.chainId === selected) ? selected : networks?.[0]?.chainId;
  const feed = useChainFeed(client, chainId);

  const select = useCallback((id: number) => {
    setSelected(id);
    window.history.replaceState(window.history.state, "", `#chain=${id}`);
  }, []);

  const refused = error instanceof ApiCallError && error.status === 401;
  useEffect(() => {
    if (refused && networks === undefined) onKeyRefused();
  }, [refused, networks, onKeyRefused]);

  const serviceDown = error !== undefined && !refused;
  const live = feed?.stream === "live" && !serviceDown;
  // The desktop app's settings page (stored by its main process); a browser edits settings.json instead.
  const desktopSettings = window.gasfeesDesktop?.settings;
  const [settingsOpen, setSettingsOpen] = useState(false);
  return (
    <div className="app">
      <header className="topbar">
        <h1 className="brand">
          gasfees <span className="brand-sub">base fees, live</span>
        </h1>
        <span className={`link-state ${live ? "link-live" : "link-waiting"}`} data-testid="link-state" data-state={live ? "live" : "connecting"}>
          <span className="dot" aria-hidden="true" />
          {live ? "Live" : serviceDown ? "Service unreachable: retrying…" : "Connecting…"}
        </span>
        {desktopSettings && !settingsOpen && (
          <button type="button" className="open-settings" onClick={() => setSettingsOpen(true)} data-testid="open-settings">
            Settings
          </button>
        )}
      </header>
      {settingsOpen && desktopSettings ? (
        <SettingsPage bridge={desktopSettings} onClose={() => setSettingsOpen(false)} />
      ) : networks === undefined ? (
        <main className="placeholder">{serviceDown ? `The gasfees service does not answer (${error.message}). Retrying…` : "Loading the chains…"}</main>
      ) : networks.length === 0 ? (
        <main className="placeholder">No chain is configured: add one with --chain ID=URL or in settings.json.</main>
      ) : (
        <>
          <ChainSwitcher networks={networks} selected={chainId} live={feed?.status} onSelect={select} />
          <main>{feed && chainId !== undefined ? <ChainView feed={feed} /> : null}</main>
          <ApiPanel baseUrl={client.baseUrl} token={client.token} chainId={chainId ?? 1} />
        </>
      )}
    </div>
  );
}

function KeyForm({ onKey }: { onKey: (token: string) => void }) {
  const [value, setValue] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() !== "") onKey(value.trim());
  };
  return (
    <div className="app">
      <header className="topbar">
        <h1 className="brand">gasfees</h1>
      </header>
      <main className="key-form-wrap">
        <form className="key-form" onSubmit={submit} data-testid="key-form">
          <h2>This dashboard needs a key</h2>
          <p>
            Open the address that <code>npm run serve</code> prints on its console (<code>dashboard: http://127.0.0.1:…/?token=…</code>), or paste one of your
            API keys.
          </p>
          <label>
            API key or session token
            <input type="password" autoComplete="off" spellCheck={false} value={value} onChange={(event) => setValue(event.target.value)} autoFocus />
          </label>
          <button type="submit">Open the dashboard</button>
        </form>
      </main>
    </div>
  );
}
