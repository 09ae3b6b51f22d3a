// How long a kept-alive connection may stay idle, and the header that tells clients so. The slow-client watch closes
// idle connections (slowClients.ts), not node:http, which writes this header itself only while it times them itself
// (`server.keepAliveTimeout`): every answer of the server carries it instead, so that a client closes a connection
// before the server does rather than reuse it as it closes (node's Agent and undici read the hint).

/** An idle kept-alive connection is closed after this long (within the watch's check interval, a second). */
export const KEEP_ALIVE_IDLE_MS = 5_000;

/** The `Keep-Alive` header's value: whole seconds, as node:http writes it. */
export const KEEP_ALIVE_HINT = `timeout=${Math.floor(KEEP_ALIVE_IDLE_MS / 1000)}`;
