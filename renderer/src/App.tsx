import { useCallback, useEffect, useLayoutEffect, useMemo, useState, type FormEvent } from "react";
import { AlertToasts } from "./alerts/AlertToasts.tsx";
import { ApiPanel } from "./api/ApiPanel.tsx";
import { ChainSwitcher } from "./chains/ChainSwitcher.tsx";
import { ChainView, LastContact } from "./ChainView.tsx";
import { noChainAnswers } from "./live/chainState.ts";
import { CostsStore } from "./costs/costsStore.ts";
import { OutlookStore } from "./outlook/outlookStore.ts";
import { findConnection, forgetToken, rememberToken, type Connection } from "./live/connection.ts";
import { createDataClient, type DataClient } from "./live/dataClient.ts";
import type { LinkState } from "./live/liveConnection.ts";
import { NoChainAnswers } from "./NoChainAnswers.tsx";
import { StatsStore } from "./history/statsStore.ts";
import { BASE_FEE_RANGE_KEY, BLOB_RANGE_KEY, useChartRange } from "./history/useChartRange.ts";
import { useLiveConnection } from "./live/useLiveConnection.ts";
import { useCosts } from "./costs/useCosts.ts";
import { useShownAction } from "./costs/useShownAction.ts";
import { ShownActionPicker } from "./costs/ShownActionPicker.tsx";
import { desktopSettings } from "./settings/settingsClient.ts";
import { SettingsPage } from "./settings/SettingsPage.tsx";
import { rememberHourlyStats } from "./heatmap/rememberedHourlyStats.ts";

export function App() {
  const [connection, setConnection] = useState<Connection | undefined>(() => findConnection());
  const client = useMemo(() => (connection ? createDataClient(connection) : undefined), [connection]);
  const useToken = useCallback((token: string) => {
    rememberToken(token);
    setConnection(findConnection());
  }, []);
  if (client === undefined) return <TokenScreen onToken={useToken} />;
  // A new client (another token) is a new dashboard: nothing of the previous connection carries over.
  return <Dashboard key={`${client.baseUrl} ${client.token}`} client={client} onToken={useToken} />;
}

function chainFromHash(): number | undefined {
  const match = /^#chain=(\d+)$/.exec(window.location.hash);
  return match ? Number(match[1]) : undefined;
}

function Dashboard({ client, onToken }: { client: DataClient; onToken: (token: string) => void }) {
  const { link, feed, panelKey, alerts, refreshAlerts } = useLiveConnection(client);
  // The history's answers (baseFeeStats), shared by the chart, the heatmap and the chain tiles.
  const stats = useMemo(() => new StatsStore((chainId, request, signal) => client.baseFeeStats(chainId, request, signal)), [client]);
  useEffect(() => () => stats.cancel(), [stats]);
  // The costs' answers, shared by the chain's costs panel and the chain tiles.
  const costs = useMemo(() => new CostsStore((chainId, signal) => client.costs(chainId, signal)), [client]);
  useEffect(() => () => costs.cancel(), [costs]);
  // The outlook's answers ("Wait or pay now"), asked once per block and question.
  const outlook = useMemo(() => new OutlookStore((chainId, query, signal) => client.outlook(chainId, query, signal)), [client]);
  useEffect(() => () => outlook.cancel(), [outlook]);
  const priceHistory = useCallback((chainId: number, fromSeconds: number, signal: AbortSignal) => client.priceHistory(chainId, fromSeconds, signal), [client]);
  // The cheapest hours' summaries, remembered per chain so that a switch of chain and back asks nothing again.
  const hourlyStats = useMemo(() => rememberHourlyStats((chainId, signal) => client.hourlyStats(chainId, signal)), [client]);
  // Older blocks arriving (a backfill) outdate the history's answers: the views fill in as it goes. Told before the
  // views ask (their effects come after layout effects), so that each answer knows what was held when it was asked.
  useLayoutEffect(() => {
    for (const { status } of feed.chains) stats.historyHeld(status.chainId, status.history.oldestBlock, status.history.oldestTime);
  }, [stats, feed.chains]);
  const [range, setRange] = useChartRange(BASE_FEE_RANGE_KEY);
  const [blobRange, setBlobRange] = useChartRange(BLOB_RANGE_KEY);
  const [selected, setSelected] = useState<number | undefined>(chainFromHash);
  const chain = feed.chains.find((candidate) => candidate.status.chainId === selected) ?? feed.chains[0];
  const chainId = chain?.status.chainId;
  const select = useCallback((id: number) => {
    setSelected(id);
    window.history.replaceState(window.history.state, "", `#chain=${id}`);
  }, []);
  const [shownAction, setShownAction] = useShownAction();
  // The actions offered to the tiles: those of the shown chain's costs (read only: its panel asks for them).
  const shownChainCosts = useCosts(costs, chainId ?? 0, null, 0, false).costs;
  const rejected = link.kind === "rejected";
  useEffect(() => {
    // A refused token is not kept for the next visit.
    if (rejected) forgetToken();
  }, [rejected]);

  const live = link.kind === "live";
  // What /networks says of every chain: none has data, and every endpoint of each fails (offline, say).
  const noneAnswering = live && noChainAnswers(feed.chains.map((each) => each.status));
  const offline = useMemo(() => (link.kind === "unreachable" || link.kind === "reconnecting" ? { lastContactAt: link.lastContactAt } : undefined), [link]);
  // The desktop app's settings page (stored by its main process); a browser edits settings.json instead.
  const settings = desktopSettings();
  const [settingsOpen, setSettingsOpen] = useState(false);

  if (link.kind === "rejected") return <TokenScreen rejected={link.reason} onToken={onToken} />;
  return (
    <div className="app">
      <header className="topbar">
        <h1 className="brand">
          gasfees <span className="brand-sub">EIP-1559 base fees</span>
        </h1>
        <LinkIndicator link={link} noChainAnswers={noneAnswering} />
        {chain !== undefined && !settingsOpen ? <ShownActionPicker actions={shownChainCosts?.actions} shown={shownAction} onChoose={setShownAction} /> : null}
        {settings && !settingsOpen && (
          <button type="button" className="open-settings" onClick={() => setSettingsOpen(true)} data-testid="open-settings">
            Settings
          </button>
        )}
      </header>
      {settingsOpen && settings ? (
        // Each change stored may change the alert rules: the chart and the list show it at once, not with the next block.
        <SettingsPage bridge={settings} onClose={() => setSettingsOpen(false)} onSaved={refreshAlerts} />
      ) : noneAnswering ? (
        <NoChainAnswers chains={feed.chains.map((each) => each.status)} desktop={settings !== undefined} />
      ) : chain === undefined ? (
        <main className="placeholder" data-testid="no-chains">
          {link.kind === "unreachable" ? (
            <ServiceBanner link={link} hasData={false} />
          ) : live && feed.configured.length === 0 ? (
            "No chain is configured: add one with --chain ID=URL or in settings.json."
          ) : (
            "Loading the chains…"
          )}
        </main>
      ) : (
        <>
          {offline ? <ServiceBanner link={link} hasData /> : null}
          <ChainSwitcher
            chains={feed.chains}
            selected={chainId}
            serviceAnswering={live}
            stats={stats}
            costs={costs}
            shownAction={shownAction}
            onSelect={select}
          />
          <main>
            <ChainView
              chain={chain}
              offline={offline}
              stats={stats}
              shownAction={shownAction}
              priceHistory={priceHistory}
              hourlyStats={hourlyStats}
              costs={costs}
              outlook={outlook}
              range={range}
              onRange={setRange}
              blobRange={blobRange}
              onBlobRange={setBlobRange}
              alerts={alerts.state}
              desktop={settings !== undefined}
            />
          </main>
          <ApiPanel baseUrl={client.baseUrl} panelKey={panelKey} chainId={chain.status.chainId} />
        </>
      )}
      <AlertToasts fired={alerts.fired} />
    </div>
  );
}

/**
 * The page's own link to the service, in the top bar; while it is live but no chain answers, that instead (the page
 * is live, its data is not).
 */
function LinkIndicator({ link, noChainAnswers }: { link: LinkState; noChainAnswers: boolean }) {
  const words =
    link.kind === "live"
      ? noChainAnswers
        ? "No chain answers"
        : "Live"
      : link.kind === "connecting"
        ? "Connecting…"
        : link.kind === "reconnecting"
          ? "Reconnecting…"
          : link.kind === "unreachable"
            ? "Service unreachable"
            : "Token rejected";
  return (
    <span
      className={`link-state link-${link.kind}${noChainAnswers ? " link-no-chain" : ""}`}
      data-testid="link-state"
      data-state={link.kind}
      data-chains={noChainAnswers ? "none-answering" : undefined}
    >
      <span className="dot" aria-hidden="true" />
      {words}
      {link.kind === "unreachable" || link.kind === "reconnecting" ? (
        <span className="link-detail">
          {" · "}
          <LastContact at={link.lastContactAt} />
        </span>
      ) : null}
    </span>
  );
}

/** While the service does not answer: what is known, since when, and that the page keeps trying by itself. */
function ServiceBanner({ link, hasData }: { link: LinkState; hasData: boolean }) {
  if (link.kind !== "unreachable" && link.kind !== "reconnecting") return null;
  return (
    <div className="banner banner-offline" role="status" data-testid="service-banner" data-state={link.kind}>
      <strong>{link.kind === "unreachable" ? "The gasfees service is not answering" : "Reconnecting to the gasfees service…"}</strong>
      {link.kind === "unreachable" ? ` (${link.reason}).` : ""} {hasData ? "The numbers below are its last data, not current ones. " : ""}
      This page reconnects by itself as soon as the service is back
      {link.kind === "unreachable" && link.lastContactAt === undefined ? "; is it running (npm run serve, or the desktop app)?" : "."}
    </div>
  );
}

/** No token, or one the service refused: what happened, where the current one is, and a field to paste it. */
function TokenScreen({ rejected, onToken }: { rejected?: string; onToken: (token: string) => void }) {
  const [value, setValue] = useState("");
  const desktop = window.gasfeesDesktop !== undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() !== "") onToken(value.trim());
  };
  return (
    <div className="app">
      <header className="topbar">
        <h1 className="brand">gasfees</h1>
      </header>
      <main className="key-form-wrap">
        {rejected === undefined ? (
          <form className="key-form" onSubmit={submit} data-testid="key-form">
            <h2>This dashboard needs a key</h2>
            <p>
              Open the address that <code>npm run serve</code> prints on its console (<code>dashboard: http://127.0.0.1:…/?token=…</code>), or paste one of your
              API keys.
            </p>
            <TokenField value={value} onChange={setValue} />
            <button type="submit">Open the dashboard</button>
          </form>
        ) : (
          <form className="key-form key-form-rejected" onSubmit={submit} data-testid="token-rejected">
            <h2>The service rejected this page&apos;s token</h2>
            <p className="key-form-reason">The gasfees service is running, but it refuses the token or key this page was opened with.</p>
            <p className="key-form-detail" data-testid="rejected-reason">
              The service answered: “{rejected}”
            </p>
            {desktop ? (
              <p>The dashboard&apos;s token was probably rotated. Reload the window: it opens with the current token.</p>
            ) : (
              <>
                <p>
                  The dashboard&apos;s token stays the same across restarts until it is rotated (in the desktop app&apos;s settings), and an API key stops
                  working when it is revoked. To get the current address:
                </p>
                <ul>
                  <li>
                    look for the line <code>dashboard: http://127.0.0.1:…/?token=…</code> that <code>npm run serve</code> prints on its console when it starts;
                  </li>
                  <li>or, in the desktop app, open the dashboard from the tray menu;</li>
                  <li>or paste the current token, or one of your API keys, here:</li>
                </ul>
                <TokenField value={value} onChange={setValue} />
              </>
            )}
            {desktop ? (
              <button type="button" onClick={() => window.location.reload()}>
                Reload the window
              </button>
            ) : (
              <button type="submit">Open the dashboard</button>
            )}
          </form>
        )}
      </main>
    </div>
  );
}

function TokenField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <label>
      API key or dashboard token
      <input type="password" autoComplete="off" spellCheck={false} value={value} onChange={(event) => onChange(event.target.value)} autoFocus />
    </label>
  );
}
