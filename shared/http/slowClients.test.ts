// The slow-client watch on a real node:http server: an answer ended and handed to its socket is not held while its
// keep-alive connection waits for the next request. Holding it until then (a client's round trip) let answers outlive
// young-generation collections: at 200 connections each request promoted ~560 bytes and the server answered 0.49 of a
// bare node:http server's requests (npm run bench -- server; docs/benchmarks.md). test/security/slowClients.test.ts
// proves the bounds themselves.
import assert from "node:assert/strict";
import { createServer, request, Agent, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { silentLogger } from "../log/logger.ts";
import { watchSlowClients } from "./slowClients.ts";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

test("an answer ended at once is not held while its keep-alive connection waits for the next request", async (t) => {
  const answers: Array<WeakRef<ServerResponse>> = [];
  const server = createServer((req, res) => {
    if (!watch.admit(req.socket, res)) return;
    answers.push(new WeakRef(res));
    res.end("ok");
    watch.answered(req.socket, res);
  });
  const watch = watchSlowClients(server, undefined, silentLogger);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => {
    agent.destroy();
    watch.stop();
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  const get = () =>
    new Promise<string>((resolve, reject) => {
      request({ host: "127.0.0.1", port, agent }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve(body));
      })
        .on("error", reject)
        .end();
    });
  assert.equal(await get(), "ok");
  assert.equal(await get(), "ok");
  // Both answered on one connection, which stays open (the agent keeps it) with no request under way.
  assert.equal(answers.length, 2);
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  assert.deepEqual(
    answers.map((answer) => answer.deref() === undefined),
    [true, true],
    "no answer is held after it was handed to the socket",
  );
});
