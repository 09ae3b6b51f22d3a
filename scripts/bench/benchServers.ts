// Child process of serverBench: the gasfees API server (the real createApiServer, Basic auth, Host check, rate limit
// off) beside a bare node:http server answering the very same bytes and headers for the same paths, with no checks.
// Prints one JSON line, {"gasfees":port,"bare":port}, once both listen; SIGTERM stops it.
import { createServer, request, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { MAINNET_BASE_FEES_FOR_BENCH, BENCH_KEY, BENCH_PATHS } from "./benchServersData.ts";
import { createApiServer } from "../../shared/http/server.ts";
import { ApiKeyring } from "../../shared/keys/apiKeyring.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import { scriptedService } from "../../test/support/scriptedFeed.ts";

// The real service, its feed scripted: 500 real mainnet blocks.
const scripted = scriptedService([{ chainId: 1, name: "Ethereum" }]);
scripted.write(1, 17_180_000n, MAINNET_BASE_FEES_FOR_BENCH());
const gasfees = createApiServer({
  source: scripted.service,
  keyring: new ApiKeyring([{ key: BENCH_KEY }]),
  logger: silentLogger,
  port: 0,
  rateLimit: { requestsPerSecond: 0, burst: 1 },
});
const { port } = await gasfees.listen();

const authorization = `Basic ${Buffer.from(`${BENCH_KEY}:`).toString("base64")}`;
const answers = new Map<string, { headers: OutgoingHttpHeaders; body: Buffer }>();
for (const path of BENCH_PATHS) {
  const answer = await new Promise<{ headers: OutgoingHttpHeaders; body: Buffer }>((resolve, reject) => {
    request({ host: "127.0.0.1", port, path, headers: { authorization } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode}`));
        // The names as our server wrote them (res.headers would lower-case them), so that the bytes are the same.
        const headers: OutgoingHttpHeaders = {};
        for (let index = 0; index < res.rawHeaders.length; index += 2) {
          const name = res.rawHeaders[index]!;
          if (!["connection", "keep-alive", "date"].includes(name.toLowerCase())) headers[name] = res.rawHeaders[index + 1]!;
        }
        resolve({ headers, body: Buffer.concat(chunks) });
      });
    })
      .on("error", reject)
      .end();
  });
  answers.set(path, answer);
}

const bare = createServer((req, res) => {
  const answer = answers.get(req.url ?? "");
  if (answer === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, answer.headers);
  res.end(answer.body);
});
await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));

process.stdout.write(`${JSON.stringify({ gasfees: port, bare: (bare.address() as AddressInfo).port })}\n`);
process.once("SIGTERM", () => {
  bare.closeAllConnections();
  bare.close();
  void gasfees.close().then(() => process.exit(0));
});
