const LOOPBACK_NAMES: readonly string[] = ["127.0.0.1", "localhost", "[::1]"];

/**
 * The DNS-rebinding defence: a page on another site that rebinds its name to 127.0.0.1 still sends its own
 * name in Host, so only loopback names with our port (or names the user added) may call.
 * An `allowedHosts` entry without a port allows that name with any port; with a port, only that port.
 */
export function createHostCheck(allowedHosts: readonly string[]): (hostHeader: string | undefined, listeningPort: number) => boolean {
  const allowed = new Set(allowedHosts.map((host) => host.trim().toLowerCase()));
  const isAllowed = (hostHeader: string, listeningPort: number): boolean => {
    const host = splitHost(hostHeader.trim().toLowerCase());
    if (host === undefined) return false;
    const port = host.port ?? "80";
    if (LOOPBACK_NAMES.includes(host.name) && port === String(listeningPort)) return true;
    return allowed.has(host.name) || (host.port !== undefined && allowed.has(`${host.name}:${host.port}`));
  };
  // Nearly every request brings the Host of the one before: the last answer is kept (a pure function of the two).
  let last = { hostHeader: "", listeningPort: -1, allowed: false };
  return (hostHeader, listeningPort) => {
    if (hostHeader === undefined) return false;
    if (hostHeader !== last.hostHeader || listeningPort !== last.listeningPort) {
      last = { hostHeader, listeningPort, allowed: isAllowed(hostHeader, listeningPort) };
    }
    return last.allowed;
  };
}

function splitHost(host: string): { name: string; port: string | undefined } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}))?$/.exec(host);
  if (match === null) return undefined;
  return { name: match[1]!, port: match[2] };
}
