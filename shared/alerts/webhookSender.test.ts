// WebhookSender against real HTTP receivers (node:http on ephemeral ports): what arrives, what is retried, what is
// refused, and what a receiver that hangs, fails or answers without end can hold of the sender.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { networkInterfaces } from "node:os";
import { test, type TestContext } from "node:test";
import { createLogger } from "../log/logger.ts";
import { backoffMs } from "../rpc/endpoints/backoff.ts";
import { waitFor } from "../../test/support/waitFor.ts";
import type { AlertEvent } from "../wire/alerts.ts";
import { DEFAULT_WEBHOOK_BACKOFF, WebhookSender, type WebhookOutcome, type WebhookSenderOptions } from "./webhookSender.ts";

/** The path's secret: it must never show in a log line or an outcome. */
const SECRET = "T0AAA0AAA/B0BBB0BBB/k7Jx3mQ9vLr2sPz8WcYd4HnF";

const EVENT: AlertEvent = {
  ruleId: "cheap-mainnet",
  chainId: 1,
  chainName: "Ethereum",
  block: "17185155",
  baseFee: "7.912345678",
  threshold: "8",
  when: "below",
  firedAt: "2023-05-04T10:00:00.000Z",
  text: "Ethereum: base fee 7.91 Gwei, below 8 Gwei (block 17185155)",
  content: "Ethereum: base fee 7.91 Gwei, below 8 Gwei (block 17185155)",
};

interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
  /** Date.now() when its body had arrived (the mocked clock's, in the tests that mock it). */
  readonly atMs: number;
}

type Answer = (response: ServerResponse, request: ReceivedRequest, index: number) => void;

/** A webhook receiver: a real HTTP server on an ephemeral port that records each POST and answers as told. */
class Receiver {
  readonly requests: ReceivedRequest[] = [];
  readonly #sockets = new Set<Socket>();

  private constructor(
    readonly server: Server,
    readonly port: number,
  ) {}

  static async start(t: TestContext, answer: Answer, host = "127.0.0.1"): Promise<Receiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const receiver = new Receiver(server, (server.address() as AddressInfo).port);
    server.on("connection", (socket) => {
      receiver.#sockets.add(socket);
      socket.on("close", () => {
        receiver.#sockets.delete(socket);
      });
    });
    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const received = {
          method: request.method ?? "",
          path: request.url ?? "",
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          atMs: Date.now(),
        };
        receiver.requests.push(received);
        answer(response, received, receiver.requests.length - 1);
      });
    });
    t.after(() => receiver.close());
    return receiver;
  }

  /** The webhook URL, its path holding the secret. */
  url(host = "127.0.0.1"): string {
    return `http://${host}:${this.port}/hooks/${SECRET}`;
  }

  /** Connections open to this receiver now. */
  get openConnections(): number {
    return this.#sockets.size;
  }

  /** Resolves once `condition` holds. */
  async until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    await waitFor(`the receiver to see ${what}`, condition, timeoutMs);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const answerWith =
  (status: number, body = "", headers: Record<string, string> = {}): Answer =>
  (response) => {
    response.writeHead(status, headers);
    response.end(body);
  };

/** Never answers: the request stays open until the sender gives up on it. */
const hang: Answer = () => undefined;

/** A sender with short timeouts and waits, its log lines and outcomes kept for the test to read. */
function startSender(t: TestContext, options: Partial<WebhookSenderOptions> = {}) {
  const logLines: string[] = [];
  const outcomes: { ruleId: string; outcome: WebhookOutcome }[] = [];
  const sender = new WebhookSender({
    logger: createLogger("debug", (line) => logLines.push(line)),
    timeoutMs: 10_000,
    backoff: { initialMs: 50, maxMs: 200 },
    ...options,
  });
  sender.onOutcome((ruleId, outcome) => {
    outcomes.push({ ruleId, outcome });
  });
  t.after(() => sender.stop());
  /** Resolves with the `count`-th outcome (1-based) once it has come. */
  const outcomeNumber = (count: number, timeoutMs = 20_000): Promise<WebhookOutcome> =>
    waitFor(`webhook outcome number ${count}`, () => outcomes[count - 1]?.outcome, timeoutMs);
  return { sender, logLines, outcomes, outcomeNumber };
}

/**
 * Moves node:test's mocked clock on by `stepMs` at a time until `check` gives a value, and resolves with it: the
 * sender's timers fire as their time comes, however late the sender set them (the clock then only runs further).
 */
function tickUntil<T>(t: TestContext, what: string, check: () => T | undefined, stepMs = 50): Promise<T> {
  return waitFor(
    what,
    () => {
      const value = check();
      if (value === undefined) t.mock.timers.tick(stepMs);
      return value;
    },
    { everyMs: 2 },
  );
}

function assertNoSecret(texts: readonly string[]): void {
  for (const text of texts) assert.ok(!text.includes(SECRET) && !text.includes("k7Jx3mQ9"), `the webhook's secret path shows in: ${text}`);
}

test("a receiver gets one POST of the event as JSON, with its content type and user agent; the outcome is ok", async (t) => {
  const receiver = await Receiver.start(t, answerWith(204));
  const { sender, logLines, outcomes, outcomeNumber } = startSender(t);

  sender.send({ ruleId: "cheap-mainnet", url: receiver.url(), event: EVENT });
  assert.equal(sender.pendingCount, 1, "send queues the delivery and returns before anything is sent");
  assert.equal(receiver.requests.length, 0);

  const outcome = await outcomeNumber(1);
  assert.equal(outcome.ok, true);
  assert.equal(outcome.detail, "delivered: answered 204 No Content");
  assert.ok(Math.abs(outcome.at - Date.now()) < 60_000, "at is epoch ms");
  assert.equal(outcomes[0]!.ruleId, "cheap-mainnet");
  assert.equal(receiver.requests.length, 1);
  const [request] = receiver.requests;
  assert.equal(request!.method, "POST");
  assert.equal(request!.path, `/hooks/${SECRET}`);
  assert.equal(request!.body, JSON.stringify(EVENT));
  assert.equal(request!.headers["content-type"], "application/json");
  assert.match(request!.headers["user-agent"] ?? "", /^gasfees\/[0-9]+\.[0-9]+\.[0-9]+/);
  assert.equal(sender.pendingCount, 0);

  const outcomeLines = logLines.filter((line) => line.includes("webhook delivered"));
  assert.equal(outcomeLines.length, 1, "one log line per final outcome");
  assert.match(outcomeLines[0]!, new RegExp(`"to":"http://127\\.0\\.0\\.1:${receiver.port}/…"`));
  assertNoSecret([...logLines, outcome.detail]);
});

test("http://localhost reaches a receiver on this computer (the loopback-only lookup lets it through)", async (t) => {
  const receiver = await Receiver.start(t, answerWith(200, "ok"));
  const { sender, outcomeNumber } = startSender(t);
  sender.send({ ruleId: "r", url: receiver.url("localhost"), event: EVENT });
  const outcome = await outcomeNumber(1);
  assert.equal(outcome.detail, "delivered: answered 200 OK");
  assert.equal(receiver.requests.length, 1);
});

test("a receiver answering 500 is tried 3 times in all, with the backoff between tries, then given up", async (t) => {
  // The backoff is a setTimeout and the receiver notes arrivals by Date.now(): both mocked, so that the waits pass
  // at once and the arrivals' spacing is the time the clock was moved on.
  t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
  const receiver = await Receiver.start(t, answerWith(500, "database down\n"));
  const { sender, logLines, outcomes } = startSender(t, { backoff: { initialMs: 150, maxMs: 400 } });

  sender.send({ ruleId: "cheap-mainnet", url: receiver.url(), event: EVENT });
  const outcome = await tickUntil(t, "the delivery's outcome", () => outcomes[0]?.outcome, 10);

  assert.equal(outcome.ok, false);
  assert.equal(outcome.detail, 'gave up after 3 tries: answered 500 Internal Server Error: "database down"');
  assert.equal(receiver.requests.length, 3);
  assert.ok(receiver.requests.every((request) => request.body === JSON.stringify(EVENT)));
  const [first, second, third] = receiver.requests.map((request) => request.atMs);
  // Lower bounds only: the clock may have been moved on before the sender set its timer, never less than it waited.
  assert.ok(second! - first! >= 150, `the second try came ${second! - first!} ms after the first, not after the 150 ms backoff`);
  assert.ok(third! - second! >= 400, `the third try came ${third! - second!} ms after the second, not after the 400 ms backoff`);
  assert.equal(logLines.filter((line) => line.includes("webhook not delivered")).length, 1, "one log line for the final outcome, none per try");
  assert.equal(sender.pendingCount, 0);
});

test("a 503 then a 200: delivered at the second try", async (t) => {
  const receiver = await Receiver.start(t, (response, _request, index) => answerWith(index === 0 ? 503 : 200)(response, _request, index));
  const { sender, outcomeNumber } = startSender(t);
  sender.send({ ruleId: "r", url: receiver.url(), event: EVENT });
  assert.equal((await outcomeNumber(1)).detail, "delivered: answered 200 OK at try 2");
  assert.equal(receiver.requests.length, 2);
});

test("408 and 429 are retried; a 429's Retry-After is waited out", async (t) => {
  // Mocked as in the test above: the Retry-After's second passes at once, and is measured exactly.
  t.mock.timers.enable({ apis: ["setTimeout", "Date"] });
  const receiver = await Receiver.start(t, (response, request, index) =>
    [answerWith(408), answerWith(429, "", { "retry-after": "1" }), answerWith(200)][index]!(response, request, index),
  );
  const { sender, outcomes } = startSender(t, { backoff: { initialMs: 10, maxMs: 10 } });
  sender.send({ ruleId: "r", url: receiver.url(), event: EVENT });
  assert.equal((await tickUntil(t, "the delivery's outcome", () => outcomes[0]?.outcome, 10)).detail, "delivered: answered 200 OK at try 3");
  const [, second, third] = receiver.requests.map((request) => request.atMs);
  assert.ok(third! - second! >= 1000, `the try after a 429 with Retry-After: 1 came ${third! - second!} ms later, not 1 s`);
});

test("a 404 is not retried, and its outcome says why, with what the receiver said", async (t) => {
  const receiver = await Receiver.start(t, answerWith(404, "no_service"));
  const { sender, outcomeNumber } = startSender(t);
  sender.send({ ruleId: "r", url: receiver.url(), event: EVENT });
  const outcome = await outcomeNumber(1);
  assert.equal(outcome.ok, false);
  assert.equal(outcome.detail, 'answered 404 Not Found: "no_service" (not retried: the receiver refuses this request: check the webhook URL)');

  // A later delivery to the same receiver arrives as the second request: the 404 was not tried again meanwhile.
  sender.send({ ruleId: "r", url: receiver.url(), event: EVENT });
  await outcomeNumber(2);
  assert.equal(receiver.requests.length, 2);
});

test("a receiver's answer that quotes the webhook's URL or its path is not shown, nor logged: only its status is", async (t) => {
  const receiver = await Receiver.start(t, (response, request) => answerWith(410, `no webhook at ${request.path} any more`)(response, request, 0));
  const { sender, logLines, outcomeNumber } = startSender(t);
  sender.send({ ruleId: "r", url: receiver.url(), event: EVENT });
  const outcome = await outcomeNumber(1);
  assert.equal(
    outcome.detail,
    "answered 410 Gone, with an answer that quotes the webhook URL (not shown) (not retried: the receiver refuses this request: check the webhook URL)",
  );
  assertNoSecret([...logLines, outcome.detail]);
});

test("a secret path segment short or all lower case, echoed by the receiver whole or in part, never shows", async (t) => {
  const secret = "swordfish";
  const echoes = [
    (path: string, url: string) => `bad hook ${url}`,
    (path: string) => `bad hook ${path}`,
    () => `unknown token ${secret}`,
    // Where the excerpt shown is cut, in the middle of the secret.
    () => `${"x".repeat(112)} ${secret}`,
  ];
  for (const [index, echo] of echoes.entries()) {
    const receiver = await Receiver.start(t, (response, request) =>
      answerWith(403, echo(request.path, `http://127.0.0.1:${receiver.port}${request.path}`))(response, request, 0),
    );
    const { sender, logLines, outcomeNumber } = startSender(t);
    sender.send({ ruleId: "r", url: `http://127.0.0.1:${receiver.port}/hooks/${secret}`, event: EVENT });
    const outcome = await outcomeNumber(1);
    for (const text of [...logLines, outcome.detail]) {
      assert.ok(!text.includes(secret) && !text.includes("swordf"), `echo ${index}: the secret shows in: ${text}`);
    }
    assert.match(outcome.detail, /^answered 403 Forbidden, with an answer that quotes the webhook URL \(not shown\)/);
  }
});

test("a redirect is not followed, nor retried", async (t) => {
  const target = await Receiver.start(t, answerWith(200));
  const redirecting = await Receiver.start(t, answerWith(307, "", { location: `${target.url()}?again=1` }));
  const { sender, logLines, outcomeNumber } = startSender(t);

  sender.send({ ruleId: "r", url: redirecting.url(), event: EVENT });
  const outcome = await outcomeNumber(1);

  assert.equal(outcome.ok, false);
  assert.equal(
    outcome.detail,
    `answered 307 Temporary Redirect, a redirect to http://127.0.0.1:${target.port}/…, which is not followed: set the webhook URL to the address it leads to`,
  );
  assert.equal(redirecting.requests.length, 1);
  assert.equal(target.requests.length, 0);
  assertNoSecret([...logLines, outcome.detail]);
});

test("a URL that webhookUrlProblem refuses gets no request at all, and an outcome that says why", async (t) => {
  // The receiver listens on every interface, so an http URL to this computer's own network address would reach it:
  // only the refusal keeps it from being sent.
  const receiver = await Receiver.start(t, answerWith(200), "0.0.0.0");
  const { sender, outcomeNumber } = startSender(t);
  const networkAddress = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry !== undefined && entry.family === "IPv4" && !entry.internal)?.address;

  sender.send({ ruleId: "r", url: "http://example.com/hook", event: EVENT });
  assert.equal(sender.pendingCount, 0);
  const refused = await outcomeNumber(1);
  assert.equal(refused.ok, false);
  assert.equal(
    refused.detail,
    "not sent: the webhook URL must be https, or http to this computer (127.0.0.1, localhost or [::1]): http to example.com would send the alert unencrypted over the network",
  );

  if (networkAddress === undefined) t.diagnostic("no non-loopback IPv4 interface here: the refusal of this computer's network address is not tried");
  else {
    sender.send({ ruleId: "r", url: receiver.url(networkAddress), event: EVENT });
    assert.match((await outcomeNumber(2)).detail, /^not sent: the webhook URL must be https/);
  }
  // A loopback delivery to the same receiver comes after the refused ones: once it has arrived, anything they had
  // sent would have too.
  sender.send({ ruleId: "r", url: receiver.url(), event: EVENT });
  assert.equal((await outcomeNumber(networkAddress === undefined ? 2 : 3)).ok, true);
  assert.equal(receiver.requests.length, 1);

  sender.send({ ruleId: "r", url: `https://user:pass@127.0.0.1:${receiver.port}/hook`, event: EVENT });
  assert.match((await outcomeNumber(networkAddress === undefined ? 3 : 4)).detail, /^not sent: the webhook URL must not hold a user name or password/);
  sender.send({ ruleId: "r", url: "not a url", event: EVENT });
  assert.match((await outcomeNumber(networkAddress === undefined ? 4 : 5)).detail, /^not sent: the webhook URL is not a URL/);
});

test("a receiver that hangs is abandoned at the timeout, each try, and its connections closed", async (t) => {
  const receiver = await Receiver.start(t, hang);
  const { sender, outcomeNumber } = startSender(t, { timeoutMs: 300, tries: 2, backoff: { initialMs: 10, maxMs: 10 } });
  sender.send({ ruleId: "r", url: receiver.url(), event: EVENT });
  const outcome = await outcomeNumber(1);
  assert.equal(outcome.detail, "gave up after 2 tries: no answer within 300 ms");
  assert.equal(receiver.requests.length, 2);
  await receiver.until(() => receiver.openConnections === 0, "the sender close its connections");
});

test("a receiver that hangs does not delay a delivery to another receiver", async (t) => {
  const hanging = await Receiver.start(t, hang);
  const good = await Receiver.start(t, answerWith(200));
  // The hanging receiver would hold its try for a minute: the good one must arrive long before.
  const { sender, outcomes, outcomeNumber } = startSender(t, { timeoutMs: 60_000 });

  sender.send({ ruleId: "slow", url: hanging.url(), event: EVENT });
  await hanging.until(() => hanging.requests.length === 1, "the first POST");
  sender.send({ ruleId: "fast", url: good.url(), event: EVENT });

  const outcome = await outcomeNumber(1);
  assert.equal(outcomes[0]!.ruleId, "fast");
  assert.equal(outcome.ok, true);
  assert.equal(good.requests.length, 1);
  assert.equal(hanging.openConnections, 1, "the hanging receiver still holds its request");
  assert.equal(sender.pendingCount, 1);
});

test("1,000 sends to a hanging receiver hold at most maxPending deliveries and one connection; the oldest waiting are dropped", async (t) => {
  const hanging = await Receiver.start(t, hang);
  const { sender, logLines, outcomes, outcomeNumber } = startSender(t, { timeoutMs: 600_000, maxPending: 100 });

  let mostHeld = 0;
  for (let index = 0; index < 1_000; index += 1) {
    sender.send({ ruleId: `rule-${index}`, url: hanging.url(), event: { ...EVENT, ruleId: `rule-${index}` } });
    mostHeld = Math.max(mostHeld, sender.pendingCount);
  }
  assert.equal(mostHeld, 100);
  assert.equal(sender.pendingCount, 100);
  await outcomeNumber(900);
  assert.equal(outcomes.length, 900);
  // The first delivery is being sent, so it stays; rules 1 to 900 were dropped, oldest first.
  assert.deepEqual(
    outcomes.map(({ ruleId }) => ruleId),
    Array.from({ length: 900 }, (_, index) => `rule-${index + 1}`),
  );
  assert.ok(outcomes.every(({ outcome }) => !outcome.ok && /^not sent: dropped for a newer alert/.test(outcome.detail)));
  assert.equal(logLines.filter((line) => line.includes("dropped for a newer alert")).length, 900, "a log line per dropped delivery");

  await hanging.until(() => hanging.requests.length === 1, "the first POST");
  assert.equal(hanging.openConnections, 1, "one receiver gets one request at a time");
  assert.equal(sender.inFlightCount, 1);

  // The try would last ten minutes: only stop's abort closes its connection within the wait.
  const stopped = sender.stop(0);
  await hanging.until(() => hanging.openConnections === 0, "the sender close its connection on stop");
  await stopped;
  assert.equal(sender.pendingCount, 0);
  assert.equal(sender.inFlightCount, 0);
});

test("at most maxInFlight requests are open at once over every receiver", async (t) => {
  const receivers = await Promise.all(Array.from({ length: 6 }, () => Receiver.start(t, hang)));
  const { sender } = startSender(t, { timeoutMs: 60_000, maxInFlight: 4 });
  for (const receiver of receivers) sender.send({ ruleId: "r", url: receiver.url(), event: EVENT });
  const open = () => receivers.reduce((sum, receiver) => sum + receiver.requests.length, 0);
  await receivers[0]!.until(() => open() === 4, "four requests open");
  assert.equal(sender.inFlightCount, 4);
  assert.equal(sender.pendingCount, 6);
  // The other two wait for a slot: once the first four are abandoned (stop), none of them is sent either.
  await sender.stop();
  assert.equal(open(), 4);
});

test("an endless answer is read only up to the cap: the outcome comes from its status, well before the timeout", async (t) => {
  const receiver = await Receiver.start(t, (response) => {
    response.writeHead(200, { "content-type": "text/plain" });
    const chunk = Buffer.alloc(16 * 1024, "x");
    const write = () => {
      while (!response.destroyed && response.write(chunk));
      if (!response.destroyed) response.once("drain", write);
    };
    write();
  });
  const { sender, outcomeNumber } = startSender(t, { timeoutMs: 60_000, maxAnswerBytes: 64 * 1024 });
  sender.send({ ruleId: "r", url: receiver.url(), event: EVENT });
  const outcome = await outcomeNumber(1);
  assert.equal(outcome.detail, "delivered: answered 200 OK");
  await receiver.until(() => receiver.openConnections === 0, "the sender close the connection of the endless answer");
});

test("stop aborts what is in flight, clears the waits between tries, and sends nothing more", async (t) => {
  const hanging = await Receiver.start(t, hang);
  const failing = await Receiver.start(t, answerWith(500));
  const timersBefore = process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
  const { sender, logLines, outcomes } = startSender(t, { timeoutMs: 600_000, backoff: { initialMs: 60_000, maxMs: 60_000 } });

  sender.send({ ruleId: "hang", url: hanging.url(), event: EVENT });
  sender.send({ ruleId: "fail", url: failing.url(), event: EVENT });
  await hanging.until(() => hanging.requests.length === 1, "the first POST");
  await failing.until(() => failing.requests.length === 1, "the first POST");
  await failing.until(() => sender.inFlightCount === 1, "the failing delivery wait for its next try");

  // The hanging try would last ten minutes: only stop's abort closes its connection within the wait.
  const stopped = sender.stop(0);
  await hanging.until(() => hanging.openConnections === 0, "the sender close its connection on stop");
  await stopped;
  assert.equal(sender.pendingCount, 0);
  assert.equal(sender.inFlightCount, 0);
  await failing.until(() => failing.openConnections === 0, "the failing receiver's connection closed");
  assert.equal(process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length, timersBefore, "no timer left behind");
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    outcomes.map(({ ruleId, outcome }) => [ruleId, outcome.detail]),
    [
      ["hang", "not delivered: dropped at shutdown after 1 try (the service stopped before an answer came; it is not sent later)"],
      ["fail", "not delivered: dropped at shutdown after 1 try (the service stopped; it is not sent later)"],
    ],
  );
  assert.equal(logLines.filter((line) => line.includes("dropped at shutdown")).length, 2);

  sender.send({ ruleId: "late", url: failing.url(), event: EVENT });
  assert.equal(sender.pendingCount, 0);
  assert.equal(failing.requests.length, 1);
  assert.equal(outcomes.length, 2, "a send after stop is not queued, and has no outcome but its log line");
});

test("at shutdown, a delivery still queued is sent within the grace; one that cannot be is told as dropped at shutdown, per rule", async (t) => {
  // The receiver answers 300 ms after each POST: within the grace of 2 s.
  const slow = await Receiver.start(t, (response) => void setTimeout(() => answerWith(200)(response, {} as ReceivedRequest, 0), 300));
  const hanging = await Receiver.start(t, hang);
  const { sender, logLines, outcomes } = startSender(t, { timeoutMs: 600_000, maxInFlight: 1 });
  sender.send({ ruleId: "slow-1", url: slow.url(), event: EVENT });
  sender.send({ ruleId: "slow-2", url: slow.url(), event: EVENT }); // queued behind the first: same receiver
  await sender.stop(2_000);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    outcomes.map(({ ruleId, outcome }) => [ruleId, outcome.ok, outcome.detail]),
    [
      ["slow-1", true, "delivered: answered 200 OK"],
      ["slow-2", true, "delivered: answered 200 OK"],
    ],
  );
  assert.equal(slow.requests.length, 2);

  const second = startSender(t, { timeoutMs: 600_000, maxInFlight: 1 });
  second.sender.send({ ruleId: "hang", url: hanging.url(), event: EVENT });
  second.sender.send({ ruleId: "queued", url: slow.url(), event: EVENT }); // waits for the one request slot
  await hanging.until(() => hanging.requests.length === 1, "the first POST");
  // The grace bounds the shutdown: stop() resolves with the hanging request still unanswered (it never will be).
  await second.sender.stop(300);
  assert.equal(hanging.requests.length, 1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    second.outcomes.map(({ ruleId, outcome }) => [ruleId, outcome.ok, outcome.detail]),
    [
      ["hang", false, "not delivered: dropped at shutdown after 1 try (the service stopped before an answer came; it is not sent later)"],
      ["queued", false, "not delivered: dropped at shutdown before its first try (the service stopped; it is not sent later)"],
    ],
  );
  for (const rule of ["hang", "queued"]) {
    assert.ok(
      second.logLines.some((line) => line.includes("webhook not delivered") && line.includes(`"rule":"${rule}"`) && line.includes("dropped at shutdown")),
      second.logLines.join(""),
    );
  }
  assert.deepEqual(
    logLines.filter((line) => line.includes("not delivered")),
    [],
  );
});

test("send never throws, and a listener that throws does not stop the others", async (t) => {
  const receiver = await Receiver.start(t, answerWith(200));
  const { sender, logLines, outcomeNumber } = startSender(t);
  sender.onOutcome(() => {
    throw new Error("listener failed");
  });
  const unserialisable = { ...EVENT, block: 1n } as unknown as AlertEvent;
  assert.doesNotThrow(() => sender.send({ ruleId: "r", url: receiver.url(), event: unserialisable }));
  assert.ok(logLines.some((line) => line.includes("webhook delivery could not be queued")));
  sender.send({ ruleId: "r", url: receiver.url(), event: EVENT });
  assert.equal((await outcomeNumber(1)).ok, true);
  await receiver.until(() => logLines.some((line) => line.includes("a webhook outcome listener threw")), "the listener's failure logged");
});

test("by default the waits between tries are 1 s, then 4 s, a Retry-After honoured up to 60 s (the one backoff policy)", () => {
  assert.deepEqual(
    [1, 2, 3].map((triesMade) => backoffMs(triesMade, DEFAULT_WEBHOOK_BACKOFF)),
    [1_000, 4_000, 4_000],
  );
  assert.equal(backoffMs(1, DEFAULT_WEBHOOK_BACKOFF, 30_000), 30_000);
  assert.equal(backoffMs(2, DEFAULT_WEBHOOK_BACKOFF, 600_000), 60_000);
});

test("options out of range are refused when the sender is made", () => {
  const logger = createLogger("silent");
  assert.throws(() => new WebhookSender({ logger, tries: 0 }), /tries must be a whole number of 1 or more/);
  assert.throws(() => new WebhookSender({ logger, maxPending: 1.5 }), /maxPending must be a whole number/);
  assert.throws(() => new WebhookSender({ logger, timeoutMs: 0 }), /timeoutMs must be a positive number/);
  assert.throws(() => new WebhookSender({ logger, backoff: { initialMs: 0 } }), /a backoff waits a positive time/);
});
