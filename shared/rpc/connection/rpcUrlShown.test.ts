// How an RPC endpoint is shown (in /networks, /metrics, the log): its origin only, as a webhook is, with the label
// its user gave it. A path may hold a provider's secret of any shape: short, or plain lower case, which no guess of
// "what looks like a key" can tell from a word.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test, type TestContext } from "node:test";
import { waitFor } from "../../../test/support/waitFor.ts";
import { createLogger } from "../../log/logger.ts";
import { ChainFeed } from "../feed/chainFeed.ts";

/** An RPC endpoint on 127.0.0.1 that refuses every call with a body that quotes the path it was called at. */
async function refusingEndpoint(t: TestContext): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(403, { "content-type": "text/plain" }).end(`no project at ${request.url ?? ""} (key ${request.url?.slice(1)})`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

for (const secret of ["swordfish", "k3yz", "AbC9", "rpc/mainnet/swordfish"]) {
  test(`a path secret like /${secret} never shows: the endpoint is its origin (and label) in the report and the log`, async (t) => {
    const origin = await refusingEndpoint(t);
    const lines: string[] = [];
    const feed = new ChainFeed({
      chainId: 1,
      rpcUrls: [`${origin}/${secret}`, `${origin}/other`],
      rpcLabels: { [`${origin}/other`]: "backup node" },
      blockTimeMs: 1000,
      windowBlocks: 500,
      requestTimeoutMs: 2000,
      logger: createLogger("debug", (line) => lines.push(line)),
    });
    feed.start();
    t.after(() => feed.stop());
    await waitFor("the endpoint to fail", () => feed.report.endpoints[0]?.state === "failing" && lines.some((line) => line.includes("403")), 10_000);
    assert.deepEqual(
      feed.report.endpoints.map((endpoint) => endpoint.url),
      [`${origin}/…`, `${origin}/… (backup node)`],
    );
    const secretParts = secret.split("/").filter((part) => part.length >= 3 && part !== "rpc");
    for (const text of [JSON.stringify(feed.report), ...lines]) {
      for (const part of secretParts) assert.ok(!text.includes(part), `/${secret} shows in: ${text}`);
    }
  });
}
