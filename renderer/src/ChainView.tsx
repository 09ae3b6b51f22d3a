import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import type { Costs, PriceHistory } from "../../shared/wire/costs.ts";
import type { HourlyStatsAsk } from "./heatmap/rememberedHourlyStats.ts";
import { HISTORY_BLOCKS } from "../../shared/core/fees/historyLength.ts";
import { shortGwei } from "../../shared/core/text/shortGwei.ts";
import { congestionOf } from "../../shared/wire/congestion.ts";
import type { AlertsState } from "./live/alertsFeed.ts";
import { AlertsPanel } from "./alerts/AlertsPanel.tsx";
import { BackfillProgress } from "./backfill/BackfillProgress.tsx";
import { BlobView } from "./blob/BlobView.tsx";
import { storeWords } from "./text/storeWords.ts";
import { disputeWords, endpointLine } from "./text/disputeWords.ts";
import { type AlertLine, alertLinesOf } from "./live/chartAlertLines.ts";
import { ChartLegend } from "./chart/ChartLegend.tsx";
import { chartRange, type ChartRangeId } from "./history/chartRange.ts";
import { CheapestHours } from "./heatmap/CheapestHours.tsx";
import { localHourStartSeconds } from "./heatmap/hourOfWeek.ts";
import { endpointsSummary, GLANCE_WORDS, glanceState } from "./live/chainState.ts";
import type { ChartCost } from "./costs/chartCost.ts";
import { CostsPanel } from "./costs/CostsPanel.tsx";
import { costsStateKey, type CostsStore } from "./costs/costsStore.ts";
import type { ChainLive } from "./live/dashboardFeed.ts";
import type { NetworkStatus } from "./live/dataClient.ts";
import { FeeChart } from "./live/FeeChart.tsx";
import { blockNumber, clockTime, shortAge } from "./text/format.ts";
import { HistoryChart } from "./history/HistoryChart.tsx";
import { OutlookPanel } from "./outlook/OutlookPanel.tsx";
import type { OutlookStore } from "./outlook/outlookStore.ts";
import { RangeSelector } from "./history/RangeSelector.tsx";
import "./chart/chartToolbar.css";
import type { StatsStore } from "./history/statsStore.ts";
import { useCosts } from "./costs/useCosts.ts";
import { usePrefetchedRanges } from "./history/usePrefetchedRanges.ts";
import { statsWindowWords } from "./text/windowWords.ts";

interface Props {
  readonly chain: ChainLive;
  /**
   * Undefined while the page is live; else when the service was last heard from (undefined inside: never). While the
   * service does not answer, nothing shown here is known to be current: every live indicator says unknown.
   */
  readonly offline: { readonly lastContactAt: number | undefined } | undefined;
  /** The history's answers (baseFeeStats), shared with the rest of the page. */
  readonly stats: StatsStore;
  /** The costs' answers (GET /networks/{chainId}/costs), shared with the chain tiles. */
  readonly costs: CostsStore;
  /** The outlook's answers ("Wait or pay now"). */
  readonly outlook: OutlookStore;
  /** The action whose cost the 1 h, 24 h and 7 d views and the cheapest hours show; undefined: the base fee in Gwei. */
  readonly shownAction: string | undefined;
  /** GET /networks/{chainId}/priceHistory, for the views in money. */
  readonly priceHistory: (chainId: number, fromSeconds: number, signal: AbortSignal) => Promise<PriceHistory>;
  /** GET /networks/{chainId}/hourlyStats, for the cheapest hours. */
  readonly hourlyStats: HourlyStatsAsk;
  /** The base fee chart's range, the same for every chain. */
  readonly range: ChartRangeId;
  readonly onRange: (range: ChartRangeId) => void;
  /** The blob chart's range, its own (its selector sits above it). */
  readonly blobRange: ChartRangeId;
  readonly onBlobRange: (range: ChartRangeId) => void;
  /** The alert rules' state (`GET /alerts`): the chain's enabled rules are drawn on the live chart and listed. */
  readonly alerts: AlertsState;
  /** In the desktop app (rules are edited on its settings page), not a browser. */
  readonly desktop: boolean;
}

/**
 * The costs panel asks again with each new block, at most this often: under the demo's 2 s blocks (and mainnet's 12 s),
 * so that its basis is the block the cards show, not one behind; a chain of quarter-second blocks is asked once a second.
 */
const COSTS_EVERY_MS = 1_000;

/** Why the time ranges cannot be drawn for a chain whose service holds no history of it. */
const NO_HISTORY = `The service holds no history for this chain yet: only the newest ${HISTORY_BLOCKS} blocks.`;

export function ChainView({
  chain,
  offline,
  stats,
  costs,
  outlook,
  shownAction,
  priceHistory,
  hourlyStats,
  range,
  onRange,
  blobRange,
  onBlobRange,
  alerts,
  desktop,
}: Props) {
  const { status, points, receivedAt } = chain;
  const newest = points[points.length - 1];
  const hasData = newest !== undefined && status.baseFeePercentile !== null && status.busyThreshold !== null;
  const congestion = offline ? "unknown" : congestionOf(status);
  const hasHistory = status.history.blocks > 0;
  // The service is asked only while it answers; what it answered before stays drawn, greyed with the rest.
  const askHistory = hasHistory && offline === undefined;
  const shownRange = chartRange(hasHistory ? range : "blocks");
  const shownBlobRange = chartRange(hasHistory ? blobRange : "blocks");
  const windowName = statsWindowWords(status.statsWindow, status.history);
  usePrefetchedRanges(stats, status.chainId, askHistory);
  const costsEntry = useCosts(costs, status.chainId, costsStateKey(status), COSTS_EVERY_MS, hasData && offline === undefined);
  const chartCost = useChartCost(costsEntry.costs, shownAction, status.chainId, priceHistory);
  const fetchHourlyStats = useCallback(
    (key: string, signal: AbortSignal, reuse: boolean) => hourlyStats(status.chainId, key, signal, reuse),
    [hourlyStats, status.chainId],
  );
  // The same array while the lines stay the same (each answer of GET /alerts is a new object), so that the chart's memo holds.
  const alertLinesKey = JSON.stringify(alertLinesOf(alerts.kind === "known" ? alerts.body : undefined, status.chainId));
  const alertLines = useMemo(() => JSON.parse(alertLinesKey) as AlertLine[], [alertLinesKey]);
  return (
    <section className={`chain-view${offline ? " chain-view-offline" : ""}`} aria-labelledby="chain-title" data-testid="chain-view" data-chain={status.chainId}>
      <div className="chain-head">
        <h2 id="chain-title">
          {status.name} <span className="chain-id">chain {status.chainId}</span>
        </h2>
        <span className={`congestion congestion-${congestion}`} data-testid="congestion" data-state={congestion}>
          {congestion === "busy" ? "Busy" : congestion === "normal" ? "Normal" : hasData || offline ? "Unknown" : "No data"}
          <span className="congestion-why">{congestionWhy(status, congestion, hasData, offline)}</span>
        </span>
        <DisputedMarker status={status} offline={offline !== undefined} />
        <Health status={status} receivedAt={receivedAt} offline={offline} />
      </div>
      {offline ? null : <DisputedBanner status={status} />}
      {!offline && status.state === "degraded" && hasData ? <DegradedBanner status={status} receivedAt={receivedAt} /> : null}
      <StoreBanner status={status} />
      <BackfillProgress history={status.history} chainName={status.name} />
      {hasData ? (
        <div className="chain-data" title={offline ? "The last data the service sent: it is not answering now." : undefined}>
          <div className="cards">
            <Card testId="newest-block" label="Newest block" value={blockNumber(newest.block)} exact={String(newest.block)} title={`block ${newest.block}`}>
              <span className="card-sub" data-testid="newest-base-fee" data-value={newest.exact} title={`${newest.exact} Gwei`}>
                fee {shortGwei(newest.exact)} Gwei
              </span>
            </Card>
            <GweiCard testId="next-base-fee" label="Next base fee" exact={status.currentBaseFee} />
            <GweiCard testId="base-fee-percentile" label="50th percentile" exact={status.baseFeePercentile} sub={`p50 over ${windowName}`} />
            <GweiCard testId="busy-threshold" label="Busy threshold" exact={status.busyThreshold} sub={`p90 over ${windowName}`} />
            <GweiCard testId="window-min" label="Window min" exact={status.minBaseFee} sub={`over ${windowName}`} />
            <GweiCard testId="window-max" label="Window max" exact={status.maxBaseFee} sub={`over ${windowName}`} />
          </div>
          <div className="chart-toolbar">
            <RangeSelector selected={shownRange.id} timeRangesUnavailable={hasHistory ? undefined : NO_HISTORY} onSelect={onRange} history={status.history} />
            <ChartLegend
              kind={shownRange.kind === "blocks" ? "blocks" : "bands"}
              baseFeePercentile={status.baseFeePercentile}
              busyThreshold={status.busyThreshold}
              windowName={windowName}
              alertLines={shownRange.kind === "blocks" ? alertLines.length : 0}
              moneyOf={chartCost === undefined ? undefined : `${chartCost.currency} per ${chartCost.actionName}`}
            />
          </div>
          {shownRange.kind === "blocks" ? (
            <>
              <div className="chart-frame" data-testid="fee-chart" aria-label={`Base fee of the newest ${points.length} blocks, in Gwei`}>
                <FeeChart
                  points={points}
                  baseFeePercentile={status.baseFeePercentile}
                  busyThreshold={status.busyThreshold}
                  windowName={windowName}
                  alertLines={alertLines}
                />
              </div>
              <p className="chart-note">
                Base fee in Gwei of blocks {blockNumber(points[0]!.block)} to {blockNumber(newest.block)}, one point per block. Dashed: the 50th percentile
                (p50) and the busy threshold (90th percentile) over {windowName}
                {status.statsWindowBlocks !== points.length ? ` (${blockNumber(status.statsWindowBlocks)} blocks)` : ""}.
                {alertLines.length > 0 ? " Dotted: the thresholds of your alert rules for this chain." : ""}
                {chartCost !== undefined ? ` The ${chartCost.actionName}'s cost is drawn over 1 h, 24 h and 7 d; the newest blocks stay in Gwei.` : ""}
              </p>
            </>
          ) : (
            <HistoryChart
              store={stats}
              chainId={status.chainId}
              range={shownRange}
              enabled={askHistory}
              baseFeePercentile={status.baseFeePercentile}
              busyThreshold={status.busyThreshold}
              windowName={windowName}
              currentBaseFee={status.currentBaseFee}
              history={status.history}
              cost={chartCost}
            />
          )}
          {/* Below the chart, which stays in view at 1280 x 800 as the page's first sight: the tiles show a cost at a glance. */}
          <CostsPanel entry={costsEntry} chainName={status.name} offline={offline !== undefined} />
          <OutlookPanel
            store={outlook}
            chainId={status.chainId}
            chainName={status.name}
            newestBlock={status.newestBlock}
            summaryHours={status.history.summaries.hours}
            enabled={offline === undefined}
            costs={costsEntry.costs}
            shownAction={shownAction}
          />
          <BlobView
            status={status}
            points={points}
            range={shownBlobRange}
            onRange={onBlobRange}
            timeRangesUnavailable={hasHistory ? undefined : NO_HISTORY}
            stats={stats}
            askHistory={askHistory}
            windowName={windowName}
            offline={offline !== undefined}
          />
          <AlertsPanel alerts={alerts} chainId={status.chainId} chainName={status.name} desktop={desktop} />
          {hasHistory && status.history.newestTime !== null ? (
            <CheapestHours
              chainId={status.chainId}
              chainName={status.name}
              fetchRows={fetchHourlyStats}
              newestHourStartSeconds={localHourStartSeconds(status.history.newestTime)}
              oldestTime={status.history.oldestTime}
              enabled={askHistory}
              cost={chartCost}
            />
          ) : null}
        </div>
      ) : (
        <EmptyState status={status} offline={offline !== undefined} />
      )}
    </section>
  );
}

/**
 * The views' money figures: the shown action's gas and the currency from the chain's costs, and its price points;
 * undefined while no action is chosen, the costs are not known, or the chain has no such action (the base fee then).
 */
function useChartCost(costs: Costs | undefined, shownAction: string | undefined, chainId: number, priceHistory: Props["priceHistory"]): ChartCost | undefined {
  const action = shownAction === undefined ? undefined : costs?.actions.find((candidate) => candidate.id === shownAction);
  const fetchPrices = useCallback((fromSeconds: number, signal: AbortSignal) => priceHistory(chainId, fromSeconds, signal), [priceHistory, chainId]);
  const [name, gas, currency] = [action?.name, action?.gas, costs?.currency];
  return useMemo(
    () => (name === undefined || gas === undefined || currency === undefined ? undefined : { actionName: name, gas: BigInt(gas), currency, fetchPrices }),
    [name, gas, currency, fetchPrices],
  );
}

function congestionWhy(status: NetworkStatus, congestion: ReturnType<typeof congestionOf>, hasData: boolean, offline: Props["offline"]): string {
  if (offline) return "the service is not answering";
  if (congestion === "busy") return "next base fee above the busy threshold";
  if (congestion === "normal") return "next base fee at or below the busy threshold";
  switch (status.state) {
    case "no-base-fee":
      return "no base fee on this chain";
    case "degraded":
      return "every RPC endpoint is failing";
    case "unreachable":
      return "no RPC endpoint answers";
    default:
      return hasData ? "waiting for the next block" : "waiting for blocks";
  }
}

function Card({
  testId,
  label,
  value,
  exact,
  title,
  children,
}: {
  testId: string;
  label: string;
  value: string;
  exact: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="card">
      <div className="card-label">{label}</div>
      <div className="card-value" data-testid={testId} data-value={exact} title={title}>
        {value}
      </div>
      {children}
    </div>
  );
}

function GweiCard({ testId, label, exact, sub }: { testId: string; label: string; exact: string | null; sub?: string }) {
  return (
    <div className="card">
      <div className="card-label">{label}</div>
      <div className="card-value" data-testid={testId} data-value={exact ?? ""} title={exact === null ? "" : `${exact} Gwei`}>
        {exact === null ? "—" : shortGwei(exact)}
        <span className="unit"> Gwei</span>
      </div>
      {sub === undefined ? null : <span className="card-sub">{sub}</span>}
    </div>
  );
}

/** Re-renders itself each second; nothing else does. */
function useNow(): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(performance.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

function Age({ status, receivedAt }: { status: NetworkStatus; receivedAt: number }) {
  const now = useNow();
  if (status.dataAgeMs === null) return <>no data yet</>;
  const age = shortAge(status.dataAgeMs + (now - receivedAt));
  return <span data-testid="data-age">{age === "now" ? "updated just now" : `updated ${age} ago`}</span>;
}

/** "last contact 14:32:05", or that there was none since the page opened. */
export function LastContact({ at }: { at: number | undefined }) {
  return (
    <span data-testid="last-contact" data-value={at ?? ""}>
      {at === undefined ? "no contact since the page opened" : `last contact ${clockTime(at)}`}
    </span>
  );
}

function Health({ status, receivedAt, offline }: { status: NetworkStatus; receivedAt: number; offline: Props["offline"] }) {
  const answering = status.endpoints.filter((endpoint) => endpoint.state === "ok").length;
  const active = status.endpoints.find((endpoint) => endpoint.active);
  const state = glanceState(status, true);
  const rpc = offline ? "unknown" : status.state === "degraded" || status.state === "unreachable" ? "failing" : answering > 0 ? "ok" : "waiting";
  const rpcWords = { unknown: "RPC unknown", ok: "RPC OK", failing: "RPC failing", waiting: "RPC not answering yet" }[rpc];
  return (
    <div className="health" data-testid="rpc-health" data-state={rpc}>
      <span className={`health-rpc rpc-${rpc}`}>
        <span className="dot" aria-hidden="true" />
        {rpcWords}
      </span>
      {offline ? null : (
        <span className="health-detail" title={status.endpoints.map(endpointLine).join("\n")}>
          {endpointsSummary(status.endpoints)}
          {active ? ` · via ${active.url}` : ""}
        </span>
      )}
      <span className="health-age">{offline ? <LastContact at={offline.lastContactAt} /> : <Age status={status} receivedAt={receivedAt} />}</span>
      {!offline && state === "no-base-fee" ? <span>{GLANCE_WORDS[state]}</span> : null}
    </div>
  );
}

function lastErrorOf(status: NetworkStatus): string | undefined {
  return status.endpoints.find((endpoint) => endpoint.lastError)?.lastError;
}

/** Every endpoint failing after data arrived: the chain's last data stays, with its age. */
function DegradedBanner({ status, receivedAt }: { status: NetworkStatus; receivedAt: number }) {
  const error = lastErrorOf(status);
  return (
    <div className="banner banner-degraded" role="status" data-testid="degraded">
      <strong>Every RPC endpoint of {status.name} is failing.</strong> Showing the last data held (<Age status={status} receivedAt={receivedAt} />
      ): the service keeps retrying and catches up by itself.
      {error ? <div className="banner-detail">Last error: {error}</div> : null}
    </div>
  );
}

/** The header's marker while the chain's endpoints disagree with no majority to settle it; not said while the service is silent. */
function DisputedMarker({ status, offline }: { status: NetworkStatus; offline: boolean }) {
  const words = offline ? undefined : disputeWords(status);
  if (words === undefined) return null;
  return (
    <span className="disputed-marker" data-testid="disputed-marker" title={words.title}>
      {words.label}
    </span>
  );
}

/** What the dispute means for the figures shown, and how the endpoints disagree (folded: one line per disagreement). */
function DisputedBanner({ status }: { status: NetworkStatus }) {
  const words = disputeWords(status);
  if (words === undefined) return null;
  return (
    <div className="banner banner-degraded banner-disputed" role="status" data-testid="disputed">
      <strong>{status.name}&apos;s data is disputed.</strong> {words.meaning}
      {words.lines.length === 0 ? null : (
        <details>
          <summary>How they disagree</summary>
          <ul className="banner-detail" data-testid="disputes">
            {words.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** The history file does not take writes (locked by another program, a full disk): said plainly, with what waits. */
function StoreBanner({ status }: { status: NetworkStatus }) {
  const words = storeWords(status.history.store);
  if (words === undefined) return null;
  return (
    <div className="banner banner-degraded" role="status" data-testid="store-failing" data-problem={status.history.store.problem}>
      <strong>{words.title}</strong> {words.detail}
    </div>
  );
}

function EmptyState({ status, offline }: { status: NetworkStatus; offline: boolean }) {
  const error = lastErrorOf(status);
  const text = offline
    ? `No data from ${status.name}: the service is not answering.`
    : status.state === "no-base-fee"
      ? `${status.name} has no EIP-1559 base fee, so there are no base-fee statistics for it.`
      : status.state === "degraded" || status.state === "unreachable"
        ? `No data yet from ${status.name}: every RPC endpoint is failing.`
        : `Waiting for the first blocks of ${status.name}…`;
  return (
    <div className="empty" data-testid="empty-state" data-state={offline ? "unknown" : status.state}>
      <p className="empty-title">{text}</p>
      {!offline && status.state === "syncing" ? (
        <p>
          The service is fetching the newest {HISTORY_BLOCKS} blocks from{" "}
          {status.endpoints.length === 1 ? "its RPC endpoint" : `${status.endpoints.length} RPC endpoints`}; the chart appears as soon as they arrive.
        </p>
      ) : null}
      {!offline && error && status.state !== "no-base-fee" ? <p className="empty-detail">Last error: {error}</p> : null}
    </div>
  );
}
