// A real Prometheus (Debian's package) scraping the real service, which follows a real Hardhat node carrying real
// mainnet base fees: Prometheus is started on loopback with a scrape config pointing at the service with Basic
// credentials, and the series it stored are read back through its HTTP API and compared with values computed here
// from the chain's own blocks (and with the API's answers).
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { RunningService } from "../../shared/app/startService.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";
import { startTestChain, type TestChain } from "../support/feedHarness.ts";
import { expectedGwei, expectedPercentile } from "../support/independentFees.ts";
import { startLocalService } from "../support/startLocalService.ts";

const PROMETHEUS = "/usr/bin/prometheus";
/** Prometheus' own config checker, from the same Debian package. */
const PROMTOOL = "/usr/bin/promtool";
const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));
const KEY = "0123456789abcdef0123456789abcdef";
const WRONG_KEY = "ffffffffffffffffffffffffffffffff";
const CHAIN_ID = 31337;
const JOB = "gasfees";
/** A second job whose key the service refuses: its target must be down, so that "up" can tell. */
const WRONG_KEY_JOB = "gasfees-wrong-key";
/** Generous for a loaded 2-core machine: Prometheus starts in about a second and scrapes every second. */
const WAIT_MS = 60_000;

/** The series compared with the API, read in one query so that all of them come from the same scrape. */
const COMPARED = [
  "gasfees_newest_block",
  "gasfees_base_fee_gwei",
  "gasfees_next_base_fee_gwei",
  "gasfees_busy_threshold_gwei",
  "gasfees_base_fee_percentile_gwei",
];

interface PrometheusServer {
  readonly url: string;
  /** One instant query through Prometheus' HTTP API: each series' labels and value. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]>;
  /** The values a label takes among the series `match` selects (what Grafana's label_values() asks). */
  labelValues(label: string, match: string): Promise<string[]>;
  stop(): Promise<void>;
}

/** Prometheus on 127.0.0.1 (a port it picks, read from its log) with its own config and storage in `dir`. */
async function startPrometheus(dir: string, config: unknown): Promise<PrometheusServer> {
  const configFile = join(dir, "prometheus.yml");
  // JSON is YAML: the config is written without a YAML library.
  await writeFile(configFile, JSON.stringify(config, null, 2));
  const child = spawn(PROMETHEUS, [`--config.file=${configFile}`, `--storage.tsdb.path=${join(dir, "data")}`, "--web.listen-address=127.0.0.1:0"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let log = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (log += chunk));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(killer);
    }
  };
  try {
    const port = await waitFor(
      "Prometheus to listen and be ready",
      () => {
        if (child.exitCode !== null) throw new Error(`Prometheus exited with ${child.exitCode}:\n${log}`);
        const listening = /msg="Listening on" address=127\.0\.0\.1:(\d+)/.exec(log);
        return listening && log.includes("Server is ready to receive web requests") ? Number(listening[1]) : undefined;
      },
      { timeoutMs: WAIT_MS, everyMs: 50 },
    );
    const url = `http://127.0.0.1:${port}`;
    return {
      url,
      async query(promql) {
        const response = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql }).toString()}`);
        const answer = (await response.json()) as {
          status: string;
          error?: string;
          data: { result: { metric: Record<string, string>; value: [number, string] }[] };
        };
        assert.equal(answer.status, "success", `${promql}: ${answer.error}`);
        return answer.data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }));
      },
      async labelValues(label, match) {
        const response = await fetch(`${url}/api/v1/label/${label}/values?${new URLSearchParams({ "match[]": match }).toString()}`);
        const answer = (await response.json()) as { status: string; data: string[] };
        assert.equal(answer.status, "success");
        return answer.data;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The scrape config of the service at `target` (`host:port`): one job with the right key, one with a wrong one. */
function scrapeConfig(target: string) {
  const job = (name: string, key: string) => ({
    job_name: name,
    scrape_interval: "1s",
    scrape_timeout: "1s",
    metrics_path: "/metrics",
    basic_auth: { username: key, password: "" },
    static_configs: [{ targets: [target] }],
  });
  return { global: { scrape_interval: "1s", scrape_timeout: "1s" }, scrape_configs: [job(JOB, KEY), job(WRONG_KEY_JOB, WRONG_KEY)] };
}

describe(
  "a real Prometheus scraping the service",
  { skip: existsSync(PROMETHEUS) ? false : `${PROMETHEUS} is missing: install Debian's prometheus package (apt-get install prometheus) to run this test` },
  () => {
    let chain: TestChain;
    let service: RunningService;
    let prometheus: PrometheusServer;
    let dir: string;

    /** Waits until the API serves `block` as its newest. */
    const servedBlock = (block: bigint) =>
      waitFor(
        `the API to serve block ${block}`,
        async () =>
          (await callApi(service.url, `/networks/${CHAIN_ID}/busyThreshold`, KEY)).headers.get("x-block-number") === String(block) ? true : undefined,
        WAIT_MS,
      );

    /** Waits until Prometheus holds a scrape of `block`, then reads the compared series of that scrape. */
    const scrapedAt = async (block: bigint) => {
      const selector = `{chain_id="${CHAIN_ID}",job="${JOB}"}`;
      await waitFor(
        `Prometheus to have scraped block ${block}`,
        async () => ((await prometheus.query(`gasfees_newest_block${selector}`))[0]?.value === Number(block) ? true : undefined),
        { timeoutMs: WAIT_MS, everyMs: 100 },
      );
      const series = await prometheus.query(`{__name__=~"${COMPARED.join("|")}",chain_id="${CHAIN_ID}",job="${JOB}"}`);
      return Object.fromEntries(series.map(({ metric, value }): [string, number] => [metric["__name__"] ?? "", value]));
    };

    /**
     * The compared series as computed here from the chain up to `newest`: the statistics over its newest 500 blocks
     * (nearest rank: sorted[ceil(q/100 * N) - 1]; Gwei from wei), the base fee the newest block's, the next base fee
     * as the node itself gives it for the block after.
     */
    const expectedSeries = async (newest: bigint) => {
      const window = chain.fees(newest >= 499n ? newest - 499n : 0n, newest);
      const feeHistory = await chain.node.request<{ baseFeePerGas: string[] }>("eth_feeHistory", ["0x1", `0x${newest.toString(16)}`, []]);
      const gwei = (wei: bigint) => Number(expectedGwei(wei));
      return {
        gasfees_newest_block: Number(newest),
        gasfees_base_fee_gwei: gwei(window.at(-1)!),
        gasfees_next_base_fee_gwei: gwei(BigInt(feeHistory.baseFeePerGas[1]!)),
        gasfees_busy_threshold_gwei: gwei(expectedPercentile(window, 90)),
        gasfees_base_fee_percentile_gwei: gwei(expectedPercentile(window, 50)),
      };
    };

    /** What the API answers now, as Prometheus' numbers: the base fee is the newest block's (the last of the history). */
    const apiAnswers = async () => {
      const history = await callApi<string[]>(service.url, `/networks/${CHAIN_ID}/baseFeeHistory`, KEY);
      const threshold = await callApi<{ busyThreshold: string }>(service.url, `/networks/${CHAIN_ID}/busyThreshold`, KEY);
      const percentile = await callApi<{ baseFeePercentile: string }>(service.url, `/networks/${CHAIN_ID}/baseFeePercentile`, KEY);
      const networks = await callApi<NetworkStatus[]>(service.url, "/networks", KEY);
      const status = networks.body.find((network) => network.chainId === CHAIN_ID)!;
      return {
        gasfees_newest_block: Number(history.headers.get("x-block-number")),
        gasfees_base_fee_gwei: Number(history.body.at(-1)),
        gasfees_next_base_fee_gwei: Number(status.currentBaseFee),
        gasfees_busy_threshold_gwei: Number(threshold.body.busyThreshold),
        gasfees_base_fee_percentile_gwei: Number(percentile.body.baseFeePercentile),
      };
    };

    before(async () => {
      chain = await startTestChain(120);
      service = await startLocalService(
        [{ chainId: CHAIN_ID, name: "Local", rpcUrls: [chain.node.url], blockTimeMs: 1000, statsWindowBlocks: 500, pollIntervalMs: 200 }],
        [{ key: KEY }],
      );
      await servedBlock(chain.newestBlock);
      dir = await mkdtemp(join(tmpdir(), "gasfees-prometheus-"));
      prometheus = await startPrometheus(dir, scrapeConfig(new URL(service.url).host));
      // Two scrapes of the service stored: Prometheus counts them itself.
      await waitFor(
        "two scrapes of the service",
        async () => ((await prometheus.query(`count_over_time(up{job="${JOB}"}[5m])`))[0]?.value ?? 0) >= 2 || undefined,
        { timeoutMs: WAIT_MS, everyMs: 100 },
      );
    });

    after(async () => {
      await prometheus?.stop();
      await service?.stop();
      await chain?.node.stop();
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    });

    test("the scrape with the key is up, the one with a wrong key is down (401): Basic credentials reach the service", async () => {
      const up = await prometheus.query("up");
      assert.deepEqual(Object.fromEntries(up.map(({ metric, value }) => [metric["job"], value])), { [JOB]: 1, [WRONG_KEY_JOB]: 0 });
    });

    test("base fee, next base fee, percentile and busy threshold in Prometheus equal the values computed here from the chain's blocks", async () => {
      const scraped = await scrapedAt(chain.newestBlock);
      assert.deepEqual(scraped, await expectedSeries(chain.newestBlock));
      assert.deepEqual(await apiAnswers(), scraped, "the API answers what Prometheus stored");
    });

    test("new blocks reach Prometheus at its next scrape, with the values computed here of the chain's new blocks", async () => {
      const before = await scrapedAt(chain.newestBlock);
      const newest = await chain.mine(30);
      await servedBlock(newest);
      const scraped = await scrapedAt(newest);
      assert.deepEqual(scraped, await expectedSeries(newest));
      assert.deepEqual(await apiAnswers(), scraped, "the API answers what Prometheus stored");
      assert.notDeepEqual(scraped, before);
    });

    test("the RPC endpoint's state and the server's own answers are stored too", async () => {
      const endpoint = await prometheus.query(`gasfees_rpc_endpoint_up{chain_id="${CHAIN_ID}",job="${JOB}"}`);
      assert.deepEqual(
        endpoint.map(({ metric, value }) => [metric["endpoint"], metric["transport"], value]),
        [[chain.node.url, "http", 1]],
      );
      const scrapes = await prometheus.query(`gasfees_http_requests_total{job="${JOB}",route="/metrics",status="200"}`);
      assert.ok((scrapes[0]?.value ?? 0) >= 1, "the service counted Prometheus' earlier scrapes");
      const refused = await prometheus.query(`gasfees_http_requests_total{job="${JOB}",route="/metrics",status="401"}`);
      assert.ok((refused[0]?.value ?? 0) >= 1, "the service counted the wrong key's scrapes as 401");
    });

    test("examples/grafana-dashboard.json: its chain variable lists this chain, and every panel's query returns this chain's series", async () => {
      const dashboard = JSON.parse(await readFile(join(EXAMPLES, "grafana-dashboard.json"), "utf8")) as GrafanaDashboard;
      const variable = dashboard.templating.list.find((entry) => entry.name === "chain")!;
      const labelValues = /^label_values\((\w+), (\w+)\)$/.exec(variable.query.query);
      assert.ok(labelValues, `the chain variable's query: ${variable.query.query}`);
      assert.ok((await prometheus.labelValues(labelValues[2]!, labelValues[1]!)).includes("Local"));
      const exprs = panelsOf(dashboard.panels).flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
      assert.ok(exprs.length >= 5, `queries found: ${exprs.length}`);
      for (const expr of exprs) {
        // What Grafana sends for one chain of the repeated row.
        const series = await prometheus.query(expr.replaceAll("$chain", "Local"));
        assert.ok(series.length > 0, `${expr}: no series`);
        for (const { metric } of series) assert.equal(metric["chain"], "Local", expr);
      }
    });

    test(
      "examples/prometheus.yml is a valid config for this Prometheus (promtool check config)",
      { skip: existsSync(PROMTOOL) ? false : `${PROMTOOL} is missing` },
      async () => {
        const { stdout } = await promisify(execFile)(PROMTOOL, ["check", "config", join(EXAMPLES, "prometheus.yml")]);
        assert.match(stdout, /SUCCESS/);
      },
    );
  },
);

interface GrafanaPanel {
  readonly targets?: readonly { readonly expr: string }[];
  readonly panels?: readonly GrafanaPanel[];
}

interface GrafanaDashboard {
  readonly panels: readonly GrafanaPanel[];
  readonly templating: { readonly list: readonly { readonly name: string; readonly query: { readonly query: string } }[] };
}

/** Every panel, those inside rows too. */
function panelsOf(panels: readonly GrafanaPanel[]): GrafanaPanel[] {
  return panels.flatMap((panel) => [panel, ...panelsOf(panel.panels ?? [])]);
}
