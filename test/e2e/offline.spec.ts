// The dashboard as a user without a network meets it: `npm run serve` (what package.json's serve script runs, in a
// process of its own, with a settings folder of its own) following chains whose RPC endpoints refuse every
// connection, as an offline machine's do. What /networks says of each chain is what the page shows: no chain answers,
// why, and the demo to try instead; not a green "Live".
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "@playwright/test";
import { serveScriptArguments } from "../../scripts/bench/serveProcess.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { test } from "./support/failOnPageProblems.ts";
import { shootEverySize } from "./support/screenshots.ts";

const KEY = "0123456789abcdef0123456789abcdef";

let serve: ChildProcessWithoutNullStreams | undefined;

test.afterEach(async ({ page }) => {
  // The page first: a service stopped under it would be a console error of its event stream.
  await page.close();
  if (serve === undefined || serve.exitCode !== null || serve.signalCode !== null) return;
  const exited = once(serve, "exit");
  serve.kill("SIGTERM");
  await exited;
});

/** A local port where nothing listens: a connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `npm run serve -- <args>` in a process of its own, once it listens: its address and the dashboard's. */
async function startServe(args: readonly string[]): Promise<{ readonly url: string; readonly dashboardUrl: string }> {
  serve = spawn(process.execPath, [...serveScriptArguments(), "--port", "0", "--api-key", KEY, ...args], {
    env: { ...process.env, GASFEES_CONFIG_DIR: mkdtempSync(join(tmpdir(), "gasfees-offline-e2e-")), GASFEES_PORT: "" },
  });
  let stdout = "";
  let stderr = "";
  serve.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  serve.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  await expect
    .poll(() => /^dashboard: http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}$/m.test(stderr), { timeout: 180_000, message: `listening (stderr: ${stderr})` })
    .toBe(true);
  return { url: /^gasfees listening on (\S+)$/m.exec(stdout)![1]!, dashboardUrl: /^dashboard: (\S+)$/m.exec(stderr)![1]! };
}

async function networks(url: string): Promise<NetworkStatus[]> {
  const response = await fetch(`${url}/networks`, { headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as NetworkStatus[];
}

test("with every chain's endpoints refusing connections, the header and the page say that no chain answers, why, and suggest the demo", async ({
  page,
  problems,
}) => {
  void problems;
  test.setTimeout(240_000);
  const [http1, http10, ws10] = [await closedPort(), await closedPort(), await closedPort()];
  const { url, dashboardUrl } = await startServe(["--chain", `1=http://127.0.0.1:${http1}`, "--chain", `10=http://127.0.0.1:${http10},ws://127.0.0.1:${ws10}`]);
  // The source: what /networks says of each chain.
  await expect.poll(async () => (await networks(url)).map((chain) => chain.state), { timeout: 60_000 }).toEqual(["unreachable", "unreachable"]);

  await page.goto(dashboardUrl);
  const link = page.getByTestId("link-state");
  await expect(link).toHaveText("No chain answers");
  await expect(link).toHaveAttribute("data-chains", "none-answering");
  const dotColour = await link.locator(".dot").evaluate((dot) => getComputedStyle(dot).backgroundColor);
  const okColour = await page.evaluate(() => {
    const probe = document.createElement("span");
    probe.style.color = "var(--ok)";
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  });
  expect(dotColour, "not the green of Live").not.toBe(okColour);

  const panel = page.getByTestId("no-chain-answers");
  await expect(panel).toBeVisible();
  await expect(panel.getByRole("heading")).toHaveText("No chain answers");
  await expect(panel).toContainText("None of the 2 chains gasfees follows has data: every RPC endpoint fails.");
  // Each chain, with each endpoint's failure as /networks has it.
  const listed = panel.getByTestId("no-chain-answers-chain");
  await expect(listed).toHaveCount(2);
  await expect(listed.nth(0)).toContainText("Ethereum");
  await expect(listed.nth(0)).toContainText(`eth_chainId at http://127.0.0.1:${http1} failed: connect ECONNREFUSED 127.0.0.1:${http1}`);
  await expect(listed.nth(1)).toContainText("OP Mainnet");
  await expect(listed.nth(1)).toContainText(`http://127.0.0.1:${http10} failed: connect ECONNREFUSED`);
  await expect(listed.nth(1)).toContainText(`ws://127.0.0.1:${ws10} failed: could not open a WebSocket`);
  await expect(page.getByTestId("demo-suggestion")).toContainText("npm run serve -- --demo");
  // Nothing to chart: no empty chain view.
  await expect(page.getByTestId("rpc-health")).toHaveCount(0);
  await shootEverySize(page, "no-chain-answers");
  // The page goes before the service does (afterEach): its stream and polls would fail against a stopped server.
  await page.close();
});
