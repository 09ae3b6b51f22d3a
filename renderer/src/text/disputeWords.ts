// A disputed chain and a set-aside endpoint in plain words, for the chain tiles and the chain view (issue 29).
import type { EndpointStatus, NetworkStatus } from "../../../shared/wire/networkStatus.ts";

/** At most this many disagreements are listed; the rest are counted. */
const MOST_LINES = 8;

export interface DisputeWords {
  /** The marker's word. */
  readonly label: string;
  /** What it means for the one reading the page, in one sentence. */
  readonly meaning: string;
  /** How the endpoints disagree, one line each (the first few, then how many more). */
  readonly lines: readonly string[];
  /** All of it as a tooltip: the meaning, then the lines. */
  readonly title: string;
}

/**
 * What to tell while the chain is disputed (its endpoints disagree and no majority settles it), or undefined while
 * it is not: the figures shown are one endpoint's word, and may be wrong until the endpoints agree again.
 */
export function disputeWords(status: Pick<NetworkStatus, "disputed" | "disputes">): DisputeWords | undefined {
  if (status.disputed !== true) return undefined;
  const disputes = status.disputes ?? [];
  const more = disputes.length - MOST_LINES;
  const lines = more > 0 ? [...disputes.slice(0, MOST_LINES), `and ${more} more`] : [...disputes];
  const meaning =
    "Its RPC endpoints disagree about its data and no majority settles it: the figures shown are one endpoint's word and may be wrong until the endpoints agree.";
  return { label: "Disputed", meaning, lines, title: lines.length === 0 ? meaning : `${meaning}\n${lines.join("\n")}` };
}

const SET_ASIDE_WHY: Readonly<Record<NonNullable<EndpointStatus["setAsideFor"]>, string>> = {
  ahead: "its newest block is further ahead than the time allows",
  behind: "it lags far behind the chain's newest block",
  rewound: "it rewrote blocks deeper than the chain ever reorganises",
  "wrong-chain": "it serves another chain",
  disagrees: "its blocks, prices or fees disagree with the other endpoints' or with the history held",
};

/** Why an endpoint is set aside ("set aside: it lags far behind the chain's newest block"), or undefined while it is not. */
export function setAsideWords(endpoint: Pick<EndpointStatus, "setAsideFor" | "reportedChainId">): string | undefined {
  if (endpoint.setAsideFor === undefined) return undefined;
  const why =
    endpoint.setAsideFor === "wrong-chain" && endpoint.reportedChainId !== undefined
      ? `it serves chain ${endpoint.reportedChainId}, not this one`
      : SET_ASIDE_WHY[endpoint.setAsideFor];
  return `set aside: ${why}`;
}

/**
 * One endpoint in a line for the endpoints' tooltip: its URL, then why it is set aside or its state, then its last
 * error (which says how it differed).
 */
export function endpointLine(endpoint: Pick<EndpointStatus, "url" | "state" | "lastError" | "setAsideFor" | "reportedChainId">): string {
  const what = setAsideWords(endpoint) ?? endpoint.state;
  return `${endpoint.url}: ${what}${endpoint.lastError ? ` (${endpoint.lastError})` : ""}`;
}
