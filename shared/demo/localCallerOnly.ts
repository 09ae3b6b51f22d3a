import type { IncomingHttpHeaders } from "node:http";

/**
 * Whether a request may reach the demo's EVM node, which only the service itself calls (node:http and `ws`, which send
 * no Origin): its Host must be 127.0.0.1 or localhost with the node's port (a page re-pointing its own name at
 * 127.0.0.1 still sends its name: DNS rebinding), and it must carry no Origin (every browser request that could read
 * the answer, and every browser WebSocket, carries one). Returns why it is refused, or undefined when it may pass.
 */
export function whyRefused(headers: IncomingHttpHeaders, port: number): string | undefined {
  const host = headers.host?.toLowerCase();
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    return `the Host header must be 127.0.0.1:${port} or localhost:${port}`;
  }
  if (headers.origin !== undefined) return "requests from web pages (with an Origin header) are refused";
  return undefined;
}
