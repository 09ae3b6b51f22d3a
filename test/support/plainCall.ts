// One HTTP request to a local test server, as a plain client makes it (no agent, no retries), with the whole answer.
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface PlainAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** GET (or `method`) `path` on 127.0.0.1:`port` with `headers`; resolves with the status, headers and body as text. */
export function plainCall(port: number, path: string, headers: Record<string, string>, method = "GET"): Promise<PlainAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}
