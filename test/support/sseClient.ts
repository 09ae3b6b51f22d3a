// A small Server-Sent Events client over node:http for tests: it keeps every event of a stream, by name, in the order
// they arrived, so that a test can wait for one and count them. Comments (heartbeats) and `retry:` are not events.
import { request as httpRequest } from "node:http";
import { DEFAULT_WAIT_MS, waitFor } from "./waitFor.ts";

export interface SseEvent {
  /** The `event:` name ("message" when the event has none, as EventSource names it). */
  readonly name: string;
  /** The `data:` lines, joined by "\n". */
  readonly data: string;
}

export interface SseClient {
  readonly status: number;
  /** Every event received so far, oldest first. */
  readonly events: readonly SseEvent[];
  /** The data of every event named `name` so far, parsed as JSON. */
  dataOf<T>(name: string): T[];
  /** Resolves once `condition` holds for the events received; fails naming `what` after `timeoutMs`. */
  until(condition: (events: readonly SseEvent[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens `url` (an event stream) with HTTP Basic credentials for `apiKey` when given; resolves once the answer's head is in. */
export function openSse(url: string, apiKey?: string): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: "text/event-stream" };
    if (apiKey !== undefined) headers.authorization = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
    const req = httpRequest(url, { headers, agent: false }, (response) => {
      const events: SseEvent[] = [];
      let pending = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        pending += chunk;
        const blocks = pending.split("\n\n");
        pending = blocks.pop() ?? "";
        for (const block of blocks) {
          const event = eventOf(block);
          if (event) events.push(event);
        }
      });
      response.on("error", () => {});
      resolve({
        status: response.statusCode ?? 0,
        events,
        dataOf: <T>(name: string) => events.filter((event) => event.name === name).map((event) => JSON.parse(event.data) as T),
        until: async (condition, what, timeoutMs = DEFAULT_WAIT_MS) => {
          await waitFor(what, () => condition(events), timeoutMs);
        },
        close: () => req.destroy(),
      });
    });
    req.on("error", (error) => reject(error));
    req.end();
  });
}

/** One event's block of lines, or undefined for a block with no data (a comment, a `retry:`). */
function eventOf(block: string): SseEvent | undefined {
  let name = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) name = line.slice("event:".length).trim();
    else if (line.startsWith("data:")) data.push(line.slice("data:".length).replace(/^ /, ""));
  }
  return data.length === 0 ? undefined : { name, data: data.join("\n") };
}
