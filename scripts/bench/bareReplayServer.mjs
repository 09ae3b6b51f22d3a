// Child process of servedLoad.ts: a bare node:http server, no checks at all, that answers every request with the
// bytes gasfees answered one request with (status 200, the same header names and values but Date and Connection,
// which node:http writes itself, and the same body). Reads that answer from the URL given as its argument (with the
// Authorization header of GASFEES_BENCH_AUTHORIZATION), then prints its port on stdout. Plain node, as the service
// runs (`npm run serve` runs an esbuild bundle on plain node), with the node flags of package.json's serve script.
import { createServer, request } from "node:http";

const url = new URL(process.argv[2]);
const answer = await new Promise((resolve, reject) => {
  request(url, { headers: { authorization: process.env.GASFEES_BENCH_AUTHORIZATION } }, (res) => {
    const chunks = [];
    res.on("data", (chunk) => chunks.push(chunk));
    res.on("end", () => {
      if (res.statusCode !== 200) reject(new Error(`${url.pathname}: ${res.statusCode}`));
      // The names as gasfees wrote them (res.headers would lower-case them), so that the bytes are the same.
      const headers = {};
      for (let index = 0; index < res.rawHeaders.length; index += 2) {
        const name = res.rawHeaders[index];
        if (!["connection", "keep-alive", "date"].includes(name.toLowerCase())) headers[name] = res.rawHeaders[index + 1];
      }
      resolve({ headers, body: Buffer.concat(chunks) });
    });
  })
    .on("error", reject)
    .end();
});

const server = createServer((req, res) => {
  res.writeHead(200, answer.headers);
  res.end(answer.body);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
process.once("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
