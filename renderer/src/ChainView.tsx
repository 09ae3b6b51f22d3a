import { useEffect, useState, type ReactNode } from "react";
import { endpointsSummary, GLANCE_WORDS, glanceState } from "./chainState.ts";
import type { EndpointStatus, NetworkStatus } from "./dataClient.ts";
import { FeeChart } from "./FeeChart.tsx";
import { blockNumber, shortAge, shortGwei } from "./format.ts";
import type { ChainFeedState } from "./useLiveData.ts";

export function ChainView({ feed }: { feed: ChainFeedState }) {
  const { status, points } = feed;
  if (status === undefined) return <section className="chain-view placeholder">Loading chain {feed.chainId}…</section>;
  const newest = points[points.length - 1];
  const hasData = points.length > 0 && status.baseFeePercentile !== null && status.busyThreshold !== null;
  const congestion = status.busy === null || !hasData ? "unknown" : status.busy ? "busy" : "normal";
  return (
    <section className="chain-view" aria-labelledby="chain-title" data-testid="chain-view" data-chain={status.chainId}>
      <div className="chain-head">
        <h2 id="chain-title">
          {status.name} <span className="chain-id">chain {status.chainId}</span>
        </h2>
        <span className={`congestion congestion-${congestion}`} data-testid="congestion" data-state={congestion}>
          {congestion === "busy" ? "Busy" : congestion === "normal" ? "Normal" : "No data"}
          <span className="congestion-why">
            {congestion === "busy"
              ? "next base fee above the busy threshold"
              : congestion === "normal"
                ? "next base fee at or below the busy threshold"
                : status.state === "no-base-fee"
                  ? "no base fee on this chain"
                  : "waiting for blocks"}
            {status.state === "degraded" && congestion !== "unknown" ? " (as of the last data)" : ""}
          </span>
        </span>
        <Health status={status} receivedAt={feed.receivedAt} />
      </div>
      {status.state === "degraded" ? <DegradedBanner status={status} receivedAt={feed.receivedAt} hasData={hasData} /> : null}
      {hasData ? (
        <>
          <div className="cards">
            <Card testId="newest-block" label="Newest block" value={blockNumber(newest!.block)} exact={String(newest!.block)} title={`block ${newest!.block}`}>
              <span className="card-sub" data-testid="newest-base-fee" data-value={newest!.exact} title={`${newest!.exact} Gwei`}>
                fee {shortGwei(newest!.exact)} Gwei
              </span>
            </Card>
            <GweiCard testId="next-base-fee" label="Next base fee" exact={status.currentBaseFee} />
            <GweiCard testId="base-fee-percentile" label="50th percentile" exact={status.baseFeePercentile} />
            <GweiCard testId="busy-threshold" label="Busy threshold" exact={status.busyThreshold} />
            <GweiCard testId="window-min" label="Window min" exact={status.minBaseFee} />
            <GweiCard testId="window-max" label="Window max" exact={status.maxBaseFee} />
          </div>
          <div className="chart-frame" data-testid="fee-chart" aria-label={`Base fee of the newest ${points.length} blocks, in Gwei`}>
            <FeeChart points={points} baseFeePercentile={status.baseFeePercentile!} busyThreshold={status.busyThreshold!} />
          </div>
          <p className="chart-note">
            Base fee in Gwei of blocks {blockNumber(points[0]!.block)} to {blockNumber(newest!.block)}. Dashed: the 50th percentile (p50) and the busy threshold
            (90th percentile)
            {status.statsWindowBlocks > status.historyBlocks ? ` over ${blockNumber(status.statsWindowBlocks)} blocks` : ""}.
          </p>
        </>
      ) : (
        <EmptyState status={status} />
      )}
    </section>
  );
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

function GweiCard({ testId, label, exact }: { testId: string; label: string; exact: string | null }) {
  return (
    <div className="card">
      <div className="card-label">{label}</div>
      <div className="card-value" data-testid={testId} data-value={exact ?? ""} title={exact === null ? "" : `${exact} Gwei`}>
        {exact === null ? "—" : shortGwei(exact)}
        <span className="unit"> Gwei</span>
      </div>
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

function Health({ status, receivedAt }: { status: NetworkStatus; receivedAt: number }) {
  const answering = status.endpoints.filter((endpoint) => endpoint.state === "ok").length;
  const active = status.endpoints.find((endpoint) => endpoint.active);
  const state = glanceState(status);
  const rpc = status.state === "degraded" ? "failing" : answering > 0 ? "ok" : "waiting";
  return (
    <div className="health" data-testid="rpc-health" data-state={rpc}>
      <span className={`health-rpc rpc-${rpc}`}>
        <span className="dot" aria-hidden="true" />
        RPC {rpc === "ok" ? "OK" : rpc === "failing" ? "failing" : "not answering yet"}
      </span>
      <span className="health-detail" title={status.endpoints.map(describeEndpoint).join("\n")}>
        {endpointsSummary(status.endpoints)}
        {active ? ` · via ${active.url}` : ""}
      </span>
      <span className="health-age">
        <Age status={status} receivedAt={receivedAt} />
      </span>
      {state === "no-base-fee" ? <span>{GLANCE_WORDS[state]}</span> : null}
    </div>
  );
}

function describeEndpoint(endpoint: EndpointStatus): string {
  return `${endpoint.url}: ${endpoint.state}${endpoint.lastError ? ` (${endpoint.lastError})` : ""}`;
}

function lastErrorOf(status: NetworkStatus): string | undefined {
  return status.endpoints.find((endpoint) => endpoint.lastError)?.lastError;
}

function DegradedBanner({ status, receivedAt, hasData }: { status: NetworkStatus; receivedAt: number; hasData: boolean }) {
  const error = lastErrorOf(status);
  return (
    <div className="banner banner-degraded" role="status" data-testid="degraded">
      <strong>Every RPC endpoint of {status.name} is failing.</strong>{" "}
      {hasData ? (
        <>
          Showing the last data held (<Age status={status} receivedAt={receivedAt} />
          ): the service keeps retrying and catches up by itself.
        </>
      ) : (
        "The service keeps retrying."
      )}
      {error ? <div className="banner-detail">Last error: {error}</div> : null}
    </div>
  );
}

function EmptyState({ status }: { status: NetworkStatus }) {
  const error = lastErrorOf(status);
  const text =
    status.state === "no-base-fee"
      ? `${status.name} has no EIP-1559 base fee, so there are no base-fee statistics for it.`
      : status.state === "degraded"
        ? `No data yet from ${status.name}: every RPC endpoint is failing.`
        : `Waiting for the first blocks of ${status.name}…`;
  return (
    <div className="empty" data-testid="empty-state" data-state={status.state}>
      <p className="empty-title">{text}</p>
      {status.state === "syncing" ? (
        <p>
          The service is fetching the newest 500 blocks from {status.endpoints.length === 1 ? "its RPC endpoint" : `${status.endpoints.length} RPC endpoints`};
          the chart appears as soon as they arrive.
        </p>
      ) : null}
      {error && status.state !== "no-base-fee" ? <p className="empty-detail">Last error: {error}</p> : null}
    </div>
  );
}
