// Preloaded (`node --import`) into `npm run serve` by `GASFEES_BENCH_IN_PROCESS=1 npm run bench -- wrk` only: a bare
// node:http server inside the service's own process (same heap, same feeds, same event loop), no checks at all, that
// answers every request with the bytes the service answered its first one with, as bareReplayServer.mjs does in a
// process of its own. It splits the service's cost into its own code (service against this server) and the process it
// runs in (this server against the bare one in its own process). Listens on 127.0.0.1:GASFEES_BENCH_IN_PROCESS_PORT;
// reads its answer from GASFEES_BENCH_IN_PROCESS_SOURCE (with the Authorization of GASFEES_BENCH_AUTHORIZATION) on the
// first request, once the service listens. The demo's EVM node inherits node's flags: only the service's process serves.
import { createServer } from "node:http";
import { replayedAnswer } from "./replayedAnswer.mjs";

const port = Number(process.env.GASFEES_BENCH_IN_PROCESS_PORT);
if (process.argv[1]?.endsWith("serve.mjs") && Number.isInteger(port) && port > 0) {
  const source = new URL(process.env.GASFEES_BENCH_IN_PROCESS_SOURCE ?? "");
  let answer;
  const server = createServer((req, res) => {
    if (answer !== undefined) {
      res.writeHead(200, answer.headers);
      res.end(answer.body);
      return;
    }
    replayedAnswer(source, process.env.GASFEES_BENCH_AUTHORIZATION).then(
      (loaded) => {
        answer = loaded;
        res.writeHead(200, answer.headers);
        res.end(answer.body);
      },
      (error) => {
        res.writeHead(502).end(String(error));
      },
    );
  });
  server.listen(port, "127.0.0.1");
  // Not a reason for the service to stay up.
  server.unref();
}
