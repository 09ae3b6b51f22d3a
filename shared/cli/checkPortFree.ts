import { once } from "node:events";
import { createServer } from "node:net";

/** What serve says when its port is taken: which address, and what to do. */
export class PortInUseError extends Error {
  override name = "PortInUseError";
  constructor(host: string, port: number) {
    super(
      `cannot listen on ${host.includes(":") ? `[${host}]` : host}:${port}: the port is already in use: pick another with --port N ` +
        "(or GASFEES_PORT; 0 picks a free port), or stop the program that holds it (another gasfees, maybe)",
    );
  }
}

/**
 * Binds `host`:`port` for a moment and lets it go, so that serve finds a taken port before it starts anything else
 * (the demo's node, the feeds). Rejects with PortInUseError when it is taken, and with the system's error for anything
 * else (no such interface, a privileged port). Port 0 is always free.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    probe.listen({ host, port, exclusive: true });
    await once(probe, "listening");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") throw new PortInUseError(host, port);
    throw error;
  }
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
