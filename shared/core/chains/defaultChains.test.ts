import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_CHAINS, defaultBlobMarket, defaultRpcUrls } from "./defaultChains.ts";
import { MORE_PUBLIC_RPC_URLS } from "./morePublicRpcUrls.ts";

test("every default chain has at least two public RPC endpoints, on different hosts, so that one outage does not stop it", () => {
  for (const chain of DEFAULT_CHAINS) {
    const urls = defaultRpcUrls(chain);
    const hosts = new Set(urls.map((url) => new URL(url).host));
    assert.ok(hosts.size >= 2, `${chain.name} (${chain.id}): ${urls.join(", ")}`);
    assert.equal(new Set(urls).size, urls.length, `${chain.name}: no endpoint twice`);
  }
});

test("viem's own endpoint stays first; the others are https, need no key, and each names where it was found", () => {
  for (const chain of DEFAULT_CHAINS) assert.equal(defaultRpcUrls(chain)[0], chain.rpcUrls.default.http[0]);
  for (const [chainId, endpoints] of Object.entries(MORE_PUBLIC_RPC_URLS)) {
    assert.ok(
      DEFAULT_CHAINS.some((chain) => chain.id === Number(chainId)),
      `${chainId} is a default chain`,
    );
    for (const { url, source } of endpoints) {
      assert.equal(new URL(url).protocol, "https:", url);
      assert.doesNotMatch(url, /\$\{|api[_-]?key|YOUR/i, `${url}: a public endpoint, no key in it`);
      assert.match(source, /^(https:\/\/|github\.com\/)\S+/, `${url}: its source`);
    }
  }
});

test("the rollups among the default chains have no blob market of their own; Ethereum, Sepolia, Polygon and unknown chains have", () => {
  const market = Object.fromEntries(DEFAULT_CHAINS.map((chain) => [chain.name, defaultBlobMarket(chain.id)]));
  assert.deepEqual(market, {
    Ethereum: true,
    Base: false,
    "Arbitrum One": false,
    "OP Mainnet": false,
    Polygon: true,
    "Linea Mainnet": false,
    Sepolia: true,
  });
  assert.equal(defaultBlobMarket(31337), true, "a local chain");
  assert.equal(defaultBlobMarket(7777777), true, "a chain the defaults do not know: its settings say (blobMarket)");
});
