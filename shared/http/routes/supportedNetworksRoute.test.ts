// The hosted Gas API's network lists, asked of a real server (no key, as MetaMask's clients call them) over chains in
// every state a chain can be in.
import assert from "node:assert/strict";
import { request } from "node:http";
import { test, type TestContext } from "node:test";
import { type ScriptedService, scriptedService } from "../../../test/support/scriptedFeed.ts";
import { ApiKeyring } from "../../keys/apiKeyring.ts";
import { silentLogger } from "../../log/logger.ts";
import { supportedChainNamesSchema, supportedNetworksSchema } from "../../wire/supportedNetworks.ts";
import { createApiServer } from "../server.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const NEW_DATA_AT_MS = Date.UTC(2026, 0, 1);

/** Ethereum with data, Base with data but every endpoint failing now, Sepolia still syncing, BNB without a base fee. */
async function start(t: TestContext): Promise<{ scripted: ScriptedService; url: string }> {
  const scripted = scriptedService([
    { chainId: 1, name: "Ethereum" },
    { chainId: 8453, name: "Base" },
    { chainId: 11155111, name: "Sepolia" },
    { chainId: 56, name: "BNB Smart Chain", noBaseFee: true },
  ]);
  scripted.write(1, 100n, [10_000_000_000n, 12_000_000_000n], { newDataAt: NEW_DATA_AT_MS });
  scripted.write(8453, 500n, [1_000_000n], { newDataAt: NEW_DATA_AT_MS });
  scripted.setPhase(8453, "degraded");
  const server = createApiServer({
    source: scripted.service,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: silentLogger,
    port: 0,
    now: () => NEW_DATA_AT_MS,
  });
  const { url } = await server.listen();
  t.after(() => server.close());
  return { scripted, url };
}

async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json() };
}

test("/v1/supportedNetworks lists the chains with data (degraded ones too, their last data is served), in the configured order, without a key", async (t) => {
  const { url } = await start(t);
  const answer = await getJson(`${url}/v1/supportedNetworks`);
  assert.equal(answer.status, 200);
  assert.deepEqual(supportedNetworksSchema.parse(answer.body), { fullSupport: [1, 8453], partialSupport: {} });
});

test("/v1/supportedNetworks follows the publications: a chain is listed once its first data arrives", async (t) => {
  const { scripted, url } = await start(t);
  scripted.write(11155111, 7n, [3n], { newDataAt: NEW_DATA_AT_MS });
  assert.deepEqual((await getJson(`${url}/v1/supportedNetworks`)).body, { fullSupport: [1, 8453, 11155111], partialSupport: {} });
});

test("every chain listed answers the fee endpoints, and a chain left out would not (503 or 422)", async (t) => {
  const { url } = await start(t);
  const auth = { headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` } };
  const listed = supportedNetworksSchema.parse((await getJson(`${url}/v1/supportedNetworks`)).body).fullSupport;
  for (const chainId of [1, 8453, 11155111, 56]) {
    const { status } = await fetch(`${url}/networks/${chainId}/busyThreshold`, auth);
    assert.equal(status === 200, listed.includes(chainId), `chain ${chainId}: busyThreshold answered ${status}`);
  }
});

test("/v1/supportedChainNames names every configured chain by its decimal chain id, with data or not, without a key", async (t) => {
  const { url } = await start(t);
  const answer = await getJson(`${url}/v1/supportedChainNames`);
  assert.equal(answer.status, 200);
  assert.deepEqual(supportedChainNamesSchema.parse(answer.body), { "1": "Ethereum", "8453": "Base", "11155111": "Sepolia", "56": "BNB Smart Chain" });
});

test("the network lists keep the server's Host check (DNS rebinding) though they need no key", async (t) => {
  const { url } = await start(t);
  const { port } = new URL(url);
  for (const path of ["/v1/supportedNetworks", "/v1/supportedChainNames"]) {
    const answer = await rawGet(Number(port), path, "evil.example");
    assert.equal(answer.status, 403, path);
    assert.equal((JSON.parse(answer.body) as { code: string }).code, "FORBIDDEN_HOST");
  }
});

/** A GET with a Host header of our choosing (fetch always sends the URL's own). */
async function rawGet(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}
