// Child process of servedLoad.ts: a bare node:http server, no checks at all, that answers every request with the
// bytes gasfees answered one request with (status 200, the same header names and values but Date and Connection,
// which node:http writes itself, and the same body). Reads that answer from the URL given as its argument (with the
// Authorization header of GASFEES_BENCH_AUTHORIZATION), then prints its port on stdout. Plain node, as the service
// runs (`npm run serve` runs an esbuild bundle on plain node), with the node flags of package.json's serve script.
import { createServer } from "node:http";
import { replayedAnswer } from "./replayedAnswer.mjs";

const url = new URL(process.argv[2]);
const answer = await replayedAnswer(url, process.env.GASFEES_BENCH_AUTHORIZATION);

const server = createServer((req, res) => {
  res.writeHead(200, answer.headers);
  res.end(answer.body);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
process.once("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
