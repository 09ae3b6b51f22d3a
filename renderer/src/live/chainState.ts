import { type Congestion, congestionOf } from "../../../shared/wire/congestion.ts";
import type { NetworkStatus } from "../../../shared/wire/networkStatus.ts";

/**
 * What a chain looks like at a glance in the switcher: one word, one colour (see styles.css, `.state-*`). A chain
 * that follows its RPC shows its congestion (congestionOf, the one vocabulary of busy and normal); otherwise what
 * keeps it from having one. `unknown` is also every chain's state while the service itself is not answering: then
 * nothing the page holds is known to be current.
 */
export type GlanceState = Congestion | "degraded" | "unreachable" | "syncing" | "no-base-fee";

export function glanceState(status: NetworkStatus, serviceAnswering: boolean): GlanceState {
  if (!serviceAnswering) return "unknown";
  switch (status.state) {
    case "ok":
      return congestionOf(status);
    case "degraded":
    case "unreachable":
    case "syncing":
    case "no-base-fee":
      return status.state;
  }
}

export const GLANCE_WORDS: Readonly<Record<GlanceState, string>> = {
  busy: "busy",
  normal: "normal",
  unknown: "unknown",
  degraded: "RPC failing",
  unreachable: "RPC failing",
  syncing: "syncing",
  "no-base-fee": "no base fee",
};

type Endpoint = NetworkStatus["endpoints"][number];

/**
 * The RPC endpoints in a few words that say what is true: the one the chain is followed through and its transport,
 * then what the others are doing ("answering over ws; http standing by"). A count like "1 of 2 endpoints answering"
 * read as one endpoint broken when the other was a fallback not needed yet.
 */
export function endpointsSummary(endpoints: readonly Endpoint[]): string {
  if (endpoints.length === 0) return "no endpoint";
  const main = endpoints.find((endpoint) => endpoint.active) ?? endpoints.find((endpoint) => endpoint.state === "ok");
  // Before any answer, the first one not tried yet is being tried; the others wait their turn.
  const connecting = main === undefined && endpoints.every((endpoint) => endpoint.state === "unknown") ? endpoints[0] : undefined;
  const first = main ?? connecting;
  const others = endpoints.filter((endpoint) => endpoint !== first);
  const groups: Array<[Endpoint["state"], string]> = [
    ["ok", "also answering"],
    ["failing", "failing"],
    ["wrong-chain", "on the wrong chain"],
    ["suspect", "set aside (its answers do not fit the chain)"],
    ["unknown", first === undefined ? "not tried yet" : "standing by"],
  ];
  const rest = groups.flatMap(([state, words]) => {
    const group = others.filter((endpoint) => endpoint.state === state);
    return group.length === 0 ? [] : [`${transportsIn(group, first)} ${words}`];
  });
  const head = main ? `answering over ${main.transport}` : connecting ? `connecting over ${connecting.transport}` : "no endpoint answering";
  return rest.length === 0 ? head : `${head}; ${rest.join(", ")}`;
}

/** "http", "2 http", "http and ws"; "another http" for one of the same transport as the endpoint named first. */
function transportsIn(group: readonly Endpoint[], first: Endpoint | undefined): string {
  if (group.length === 1 && group[0]!.transport === first?.transport) return `another ${first.transport}`;
  const counts = new Map<string, number>();
  for (const endpoint of group) counts.set(endpoint.transport, (counts.get(endpoint.transport) ?? 0) + 1);
  return [...counts].map(([transport, count]) => (count === 1 ? transport : `${count} ${transport}`)).join(" and ");
}

/**
 * No chain answers: every chain followed has no data and every RPC endpoint of each fails (`unreachable` in
 * /networks). Offline, or behind a proxy, this is every chain from the start: the page then says so, and what to do,
 * instead of a chain view with nothing in it.
 */
export function noChainAnswers(chains: readonly Pick<NetworkStatus, "state">[]): boolean {
  return chains.length > 0 && chains.every((chain) => chain.state === "unreachable");
}

/** What is the matter with an endpoint, in its error's first sentence (what failed, where, why), else its state. */
export function endpointProblem(endpoint: Endpoint): string {
  if (endpoint.lastError !== undefined) {
    const end = endpoint.lastError.indexOf(". ");
    return end === -1 ? endpoint.lastError : endpoint.lastError.slice(0, end);
  }
  return `${endpoint.url}: ${endpoint.state === "unknown" ? "not tried yet" : endpoint.state}`;
}
