import { toGweiString } from "../core/fees/gwei.ts";
import { type ChainPublication, networkStatusAt } from "../service/chainPublication.ts";
import type { EndpointCallCount } from "../rpc/endpoints/endpointPool.ts";
import type { FeeSource } from "../service/feeSource.ts";
import { chainStateSchema, type EndpointStatus, endpointStatusSchema, type NetworkStatus } from "../wire/networkStatus.ts";
import type { RequestCounts } from "./metricsRequestCounts.ts";
import { Counter, Gauge, Registry } from "./promClientParts.js";

/** What `/metrics` reads: the service's publications, the server's own counts, and the clock. */
export interface MetricsSources {
  readonly source: FeeSource;
  readonly requests: RequestCounts;
  /** Event streams open now. */
  readonly eventStreams: () => number;
  /** Epoch ms, for the data's age. */
  readonly now: () => number;
}

type Labels = Readonly<Record<string, string>>;
type Sample = readonly [labels: Labels, value: number];

/** One chain as a scrape sees it: its labels, and its status as `/networks` answers it at the scrape. */
interface ScrapedChain {
  readonly labels: Labels;
  readonly status: NetworkStatus;
  readonly publication: ChainPublication;
}

/** A per-chain gauge: its value from the chain's status as `/networks` answers it at the scrape, or none (no sample). */
interface ChainGauge {
  readonly name: string;
  readonly help: string;
  readonly value: (status: NetworkStatus, publication: ChainPublication) => number | undefined;
}

const CHAIN_LABELS = ["chain_id", "chain"] as const;
const ENDPOINT_LABELS = [...CHAIN_LABELS, "endpoint", "transport"] as const;

/** A Gwei string of the API (or a wei value) as a Prometheus sample: the nearest double to the exact value. */
const gweiValue = (gwei: string | null | undefined) => (gwei === null || gwei === undefined ? undefined : Number(gwei));
const flag = (value: boolean | null) => (value === null ? undefined : value ? 1 : 0);
const orNone = (value: number | null) => value ?? undefined;

/** The per-chain series: one table, so that the names, their help and their values are read in one place. */
const CHAIN_GAUGES: readonly ChainGauge[] = [
  {
    name: "gasfees_newest_block",
    help: "The newest block held (X-Block-Number of the fee answers).",
    value: (status) => (status.newestBlock === null ? undefined : Number(status.newestBlock)),
  },
  {
    name: "gasfees_base_fee_gwei",
    help: "The newest block's base fee in Gwei (the last element of baseFeeHistory).",
    value: (_status, { snapshot }) => gweiValue(snapshot === undefined ? undefined : toGweiString(snapshot.historyWei[snapshot.historyWei.length - 1]!)),
  },
  {
    name: "gasfees_next_base_fee_gwei",
    help: "The next block's base fee in Gwei as the RPC reports it, else the newest block's (currentBaseFee of /networks): busy while above the busy threshold.",
    value: (status) => gweiValue(status.currentBaseFee),
  },
  {
    name: "gasfees_base_fee_percentile_gwei",
    help: "The 50th-percentile base fee of the statistics window in Gwei, nearest rank (baseFeePercentile).",
    value: (status) => gweiValue(status.baseFeePercentile),
  },
  {
    name: "gasfees_busy_threshold_gwei",
    help: "The 90th-percentile base fee of the statistics window in Gwei, nearest rank (busyThreshold).",
    value: (status) => gweiValue(status.busyThreshold),
  },
  { name: "gasfees_busy", help: "1 while the next block's base fee is above the busy threshold, else 0.", value: (status) => flag(status.busy) },
  {
    name: "gasfees_blob_base_fee_gwei",
    help: "The newest block's blob base fee (EIP-4844) in Gwei (the last element of blobBaseFeeHistory); no sample on a chain without blob fees.",
    value: (_status, { snapshot }) =>
      gweiValue(snapshot?.blob === undefined ? undefined : toGweiString(snapshot.blob.historyWei.at(-1) ?? snapshot.blob.currentWei)),
  },
  {
    name: "gasfees_next_blob_base_fee_gwei",
    help: "The next block's blob base fee in Gwei as the RPC reports it, else the newest block's (blobBaseFee of /networks): blob-busy while above the blob busy threshold.",
    value: (status) => gweiValue(status.blobBaseFee),
  },
  {
    name: "gasfees_blob_base_fee_percentile_gwei",
    help: "The 50th-percentile blob base fee of the statistics window in Gwei, nearest rank (blobBaseFeePercentile).",
    value: (_status, { snapshot }) => gweiValue(snapshot?.blob === undefined ? undefined : toGweiString(snapshot.blob.percentileWei)),
  },
  {
    name: "gasfees_blob_busy_threshold_gwei",
    help: "The 90th-percentile blob base fee of the statistics window in Gwei, nearest rank (blobBusyThreshold).",
    value: (_status, { snapshot }) => gweiValue(snapshot?.blob === undefined ? undefined : toGweiString(snapshot.blob.busyThresholdWei)),
  },
  {
    name: "gasfees_blob_busy",
    help: "1 while the next block's blob base fee is above the blob busy threshold, else 0.",
    value: (status) => flag(status.blobBusy),
  },
  {
    name: "gasfees_chain_disputed",
    help: "1 while the chain's endpoints disagree and no majority settles it (X-Data-Disputed), else 0.",
    value: (status) => (status.disputed === true ? 1 : 0),
  },
  {
    name: "gasfees_data_age_seconds",
    help: "Seconds since an RPC endpoint last brought new data (X-Data-Age-Ms).",
    value: (status) => (status.dataAgeMs === null ? undefined : status.dataAgeMs / 1000),
  },
  { name: "gasfees_stats_window_blocks", help: "Blocks the statistics are computed over now (X-Stats-Blocks).", value: (status) => status.statsWindowBlocks },
  { name: "gasfees_history_blocks", help: "Blocks held in the history kept across restarts (gaps not counted).", value: (status) => status.history.blocks },
  {
    name: "gasfees_history_oldest_timestamp_seconds",
    help: "Unix time of the oldest block held in the history.",
    value: (status) => orNone(status.history.oldestTime),
  },
  {
    name: "gasfees_history_newest_timestamp_seconds",
    help: "Unix time of the newest block held in the history.",
    value: (status) => orNone(status.history.newestTime),
  },
  {
    name: "gasfees_history_backfill_running",
    help: "1 while older blocks are being fetched, else 0.",
    value: (status) => flag(status.history.backfill.running),
  },
  {
    name: "gasfees_history_backfill_progress_ratio",
    help: "The share of the history horizon held, 0 to 1 (1 once the horizon or the chain's genesis is reached).",
    value: (status) => status.history.backfill.progress,
  },
  {
    name: "gasfees_history_backfill_blocks_to_go",
    help: "Blocks the backfill still has to fetch, estimated from the chain's block spacing.",
    value: (status) => orNone(status.history.backfill.blocksToGo),
  },
  {
    name: "gasfees_history_store_ok",
    help: "1 while the chain's blocks reach the history file, 0 while writing to it fails (blocks wait in memory); absent without a file.",
    value: (status) => (status.history.store.state === "off" ? undefined : flag(status.history.store.state === "ok")),
  },
  {
    name: "gasfees_history_store_unsaved_blocks",
    help: "The chain's blocks held in memory and waiting to be written to the history file.",
    value: (status) => status.history.store.unsavedBlocks,
  },
  {
    name: "gasfees_history_store_dropped_blocks",
    help: "The chain's blocks that did not fit the wait queue since the start (missing from the file until a later start backfills them).",
    value: (status) => status.history.store.droppedBlocks,
  },
];

/**
 * The service's Prometheus metrics, one registry per server (prom-client's default registry is shared by the whole
 * process, so two servers in one process would mix their series). Every series is computed when scraped, from the
 * chains' newest publications and the server's counts: between scrapes, metrics cost nothing.
 */
export class ServiceMetrics {
  readonly #registry = new Registry();
  readonly #sources: MetricsSources;
  /** The chains of the scrape under way, read once so that every series of a scrape describes the same publications. */
  #scraped: readonly ScrapedChain[] = [];

  constructor(sources: MetricsSources) {
    this.#sources = sources;
    for (const gauge of CHAIN_GAUGES) {
      this.#gauge(gauge.name, gauge.help, CHAIN_LABELS, () =>
        this.#scraped.flatMap(({ labels, status, publication }): Sample[] => {
          const value = gauge.value(status, publication);
          return value === undefined || !Number.isFinite(value) ? [] : [[labels, value]];
        }),
      );
    }
    this.#gauge(
      "gasfees_chain_state",
      "1 for the chain's state (syncing, unreachable, ok, degraded, no-base-fee), 0 for the others.",
      [...CHAIN_LABELS, "state"],
      () =>
        this.#scraped.flatMap(({ labels, status }) => chainStateSchema.options.map((state): Sample => [{ ...labels, state }, state === status.state ? 1 : 0])),
    );
    this.#gauge(
      "gasfees_price",
      "The gas token's price in the currency, from the chain's price feed (as /costs); no sample while there is no usable price.",
      [...CHAIN_LABELS, "currency", "token"],
      () =>
        this.#scraped.flatMap(({ labels, publication }): Sample[] => {
          const { price, currency } = publication.money;
          return price === undefined ? [] : [[{ ...labels, currency, token: price.shown.token }, Number(price.shown.value)]];
        }),
    );
    this.#gauge("gasfees_price_updated_timestamp_seconds", "Unix time of the price feed's round the price is from.", CHAIN_LABELS, () =>
      this.#scraped.flatMap(({ labels, publication }): Sample[] =>
        publication.money.price === undefined ? [] : [[labels, publication.money.price.shown.updatedAt]],
      ),
    );
    // An endpoint not tried yet (a standby, state unknown) is neither up nor down: it has no sample here (an alert on
    // `== 0` would page for it), and gasfees_rpc_endpoint_state says unknown.
    this.#gauge(
      "gasfees_rpc_endpoint_up",
      "1 while the RPC endpoint answers (state ok), 0 once it was tried and does not; no sample before it was tried (see gasfees_rpc_endpoint_state).",
      ENDPOINT_LABELS,
      () => this.#endpoints().flatMap(({ labels, endpoint }): Sample[] => (endpoint.state === "unknown" ? [] : [[labels, endpoint.state === "ok" ? 1 : 0]])),
    );
    this.#gauge("gasfees_rpc_endpoint_active", "1 for the RPC endpoint the chain is followed through now, else 0.", ENDPOINT_LABELS, () =>
      this.#endpoints().map(({ labels, endpoint }) => [labels, endpoint.active ? 1 : 0]),
    );
    this.#gauge(
      "gasfees_rpc_endpoint_state",
      "1 for the RPC endpoint's state (unknown, ok, failing, wrong-chain, suspect), 0 for the others.",
      [...ENDPOINT_LABELS, "state"],
      () =>
        this.#endpoints().flatMap(({ labels, endpoint }) =>
          endpointStatusSchema.unwrap().shape.state.options.map((state): Sample => [{ ...labels, state }, state === endpoint.state ? 1 : 0]),
        ),
    );
    this.#counter(
      "gasfees_rpc_calls_total",
      "JSON-RPC calls made to the RPC endpoint (each call of a batch), as of the feed's latest report.",
      (count) => count.calls,
    );
    this.#counter(
      "gasfees_rpc_failures_total",
      "JSON-RPC calls to the RPC endpoint that failed (an error, a timeout, garbage, an error answer).",
      (count) => count.failures,
    );
    this.#gauge("gasfees_event_streams", "Server-Sent Event streams open now.", [], () => [[{}, sources.eventStreams()]]);
    const requests = sources.requests;
    new Counter({
      name: "gasfees_http_requests_total",
      help: "Answers of the API server by route (its path pattern; none: refused before routing, or no such path) and status.",
      labelNames: ["route", "status"],
      registers: [this.#registry],
      collect(this: Counter<"route" | "status">) {
        this.reset();
        for (const [route, status, answers] of requests.entries()) this.inc({ route, status: String(status) }, answers);
      },
    });
  }

  /** The exposition format's media type (`text/plain; version=0.0.4`), for Content-Type. */
  get contentType(): string {
    return this.#registry.contentType;
  }

  /** The metrics in Prometheus' text format, as of now. */
  render(): Promise<string> {
    // The collects read this scrape's state; prom-client runs them all synchronously inside metrics(), so that a
    // concurrent scrape cannot swap it under them.
    const nowMs = this.#sources.now();
    this.#scraped = this.#sources.source.list().map((publication) => ({
      labels: { chain_id: String(publication.chainId), chain: publication.name },
      status: networkStatusAt(publication, nowMs),
      publication,
    }));
    return this.#registry.metrics();
  }

  #endpoints(): { labels: Labels; endpoint: EndpointStatus }[] {
    return this.#scraped.flatMap(({ labels, status }) =>
      status.endpoints.map((endpoint) => ({ labels: { ...labels, endpoint: endpoint.url, transport: endpoint.transport }, endpoint })),
    );
  }

  /** A per-endpoint counter of the feed's calls, from the publications' counts. */
  #counter(name: string, help: string, value: (count: EndpointCallCount) => number): void {
    const scraped = () => this.#scraped;
    new Counter({
      name,
      help,
      labelNames: [...CHAIN_LABELS, "endpoint"],
      registers: [this.#registry],
      collect(this: Counter) {
        this.reset();
        for (const { labels, publication } of scraped()) {
          for (const count of publication.callCounts) this.inc({ ...labels, endpoint: count.url }, value(count));
        }
      },
    });
  }

  #gauge(name: string, help: string, labelNames: readonly string[], samples: () => Iterable<Sample>): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.#registry],
      collect(this: Gauge) {
        this.reset();
        for (const [labels, value] of samples()) this.set(labels, value);
      },
    });
  }
}
