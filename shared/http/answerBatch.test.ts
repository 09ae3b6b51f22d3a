// The batch of a turn's answers on a real node:http server: every queued answer is written once its turn is over, in
// order on its connection, and accounted for once; a client gone meanwhile is skipped, and an answer whose writing
// throws is handed to the failure path without keeping the others from being written.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { test, type TestContext } from "node:test";
import { AnswerBatch, MAX_QUEUED_ANSWERS } from "./answerBatch.ts";
import { waitFor } from "../../test/support/waitFor.ts";

interface Accounted {
  readonly path: string;
  readonly route: string;
  /** Whether the answer had been handed to node:http (ended) when it was accounted for. */
  readonly ended: boolean;
}

/** A server whose every answer goes through one batch; `onQueued` runs after each is queued, in the request's turn. */
async function batchedServer(t: TestContext, onQueued: (req: IncomingMessage, res: ServerResponse) => void = () => {}) {
  const accounted: Accounted[] = [];
  const failed: string[] = [];
  const batch = new AnswerBatch(
    (req, res, route) => accounted.push({ path: req.url ?? "", route, ended: res.writableEnded }),
    (req, res, error) => {
      failed.push(`${req.url}: ${(error as Error).message}`);
      res.writeHead(500).end();
    },
  );
  const server = createServer((req, res) => {
    const path = req.url ?? "";
    // A header value node:http refuses (a line break) makes writeHead throw.
    const headers = path === "/throws" ? ["X-Bad", "a\nb"] : ["Content-Type", "text/plain", "Content-Length", String(path.length)];
    batch.add(req, res, headers, Buffer.from(path), `route of ${path}`);
    onQueued(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, accounted, failed };
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}

/** Everything a socket receives, as text. */
function receivedOn(socket: Socket): { readonly text: string } {
  const received = { text: "" };
  socket.on("data", (chunk: Buffer) => (received.text += chunk.toString("latin1")));
  return received;
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`;

test("the answers of pipelined requests are written after their turn, in order, each accounted for once", async (t) => {
  const writtenInTheirTurn: boolean[] = [];
  const { port, accounted } = await batchedServer(t, (_req, res) => writtenInTheirTurn.push(res.headersSent));
  const socket = await open(port);
  t.after(() => socket.destroy());
  const received = receivedOn(socket);
  socket.write(get("/a") + get("/bb") + get("/ccc"));
  await waitFor("three answers", () => received.text.split("HTTP/1.1 200 OK").length === 4, { timeoutMs: 10_000, everyMs: 10 });
  const bodies = [...received.text.matchAll(/\r\n\r\n(\/[a-c]+)/g)].map((match) => match[1]);
  assert.deepEqual(bodies, ["/a", "/bb", "/ccc"]);
  assert.deepEqual(writtenInTheirTurn, [false, false, false], "an answer was written in its own request's turn");
  await waitFor("three accounted", () => accounted.length === 3, { timeoutMs: 10_000, everyMs: 10 });
  assert.deepEqual(accounted, [
    { path: "/a", route: "route of /a", ended: true },
    { path: "/bb", route: "route of /bb", ended: true },
    { path: "/ccc", route: "route of /ccc", ended: true },
  ]);
});

test("an answer whose client left before the turn ended is not written, and is still accounted for", async (t) => {
  const { port, accounted } = await batchedServer(t, (req) => {
    if (req.url === "/gone") req.socket.destroy();
  });
  const gone = await open(port);
  t.after(() => gone.destroy());
  const goneClosed = new Promise((resolve) => gone.once("close", resolve));
  gone.write(get("/gone"));
  await goneClosed;
  const other = await open(port);
  t.after(() => other.destroy());
  const received = receivedOn(other);
  other.write(get("/other"));
  await waitFor("the other client's answer", () => received.text.endsWith("/other"), { timeoutMs: 10_000, everyMs: 10 });
  await waitFor("both accounted", () => accounted.length === 2, { timeoutMs: 10_000, everyMs: 10 });
  assert.deepEqual(
    accounted.map(({ path, ended }) => ({ path, ended })),
    [
      { path: "/gone", ended: false },
      { path: "/other", ended: true },
    ],
  );
});

test("an answer whose writing throws goes to the failure path, and the answers queued after it are still written", async (t) => {
  const { port, accounted, failed } = await batchedServer(t);
  const socket = await open(port);
  t.after(() => socket.destroy());
  const received = receivedOn(socket);
  socket.write(get("/throws") + get("/after"));
  await waitFor("two answers", () => received.text.includes("HTTP/1.1 500 ") && received.text.endsWith("/after"), { timeoutMs: 10_000, everyMs: 10 });
  assert.equal(failed.length, 1);
  assert.match(failed[0]!, /^\/throws: .*X-Bad/);
  await waitFor("both accounted", () => accounted.length === 2, { timeoutMs: 10_000, everyMs: 10 });
  assert.deepEqual(
    accounted.map(({ path }) => path),
    ["/throws", "/after"],
  );
});

test(`a turn that queues ${MAX_QUEUED_ANSWERS} answers writes them at once, and queues the next ones again`, async (t) => {
  const total = MAX_QUEUED_ANSWERS + 8;
  const answers: ServerResponse[] = [];
  /** For each request, in order: how many of the answers queued before it were written once its own was queued. */
  const writtenBefore: number[] = [];
  const { port, accounted } = await batchedServer(t, (_req, res) => {
    writtenBefore.push(answers.filter((answer) => answer.headersSent).length);
    answers.push(res);
  });
  const socket = await open(port);
  t.after(() => socket.destroy());
  const received = receivedOn(socket);
  // One write: node:http reads the pipelined requests in one turn (as long as its first read takes them all).
  socket.write(Array.from({ length: total }, (_, index) => get(`/p${index}`)).join(""));
  await waitFor(`${total} answers`, () => received.text.split("HTTP/1.1 200 OK").length === total + 1, { timeoutMs: 10_000, everyMs: 10 });
  await waitFor(`${total} accounted`, () => accounted.length === total, { timeoutMs: 10_000, everyMs: 10 });
  assert.deepEqual(
    accounted.map(({ path }) => path),
    Array.from({ length: total }, (_, index) => `/p${index}`),
  );
  // Queuing the bound's last answer wrote the bound's worth (the 31 before it among them); the rest waited for the turn's end.
  assert.deepEqual(writtenBefore, [
    ...Array<number>(MAX_QUEUED_ANSWERS - 1).fill(0),
    MAX_QUEUED_ANSWERS - 1,
    ...Array<number>(total - MAX_QUEUED_ANSWERS).fill(MAX_QUEUED_ANSWERS),
  ]);
});
