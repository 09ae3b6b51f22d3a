// What the tray shows, as a pure function of the service's state (tray.ts draws it).

import { moneyText } from "../../shared/core/text/money.ts";
import type { ShownCost } from "../../shared/core/text/shownCost.ts";
import { shortGwei } from "../../shared/core/text/shortGwei.ts";
import { type Congestion, congestionOf } from "../../shared/wire/congestion.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import type { ServiceState } from "../bridge/bridgeTypes.ts";

export interface TrayModel {
  readonly congestion: Congestion;
  /** Next to the icon in the macOS menu bar (short). */
  readonly title: string;
  /** The tooltip everywhere (the only text on Windows and Linux). */
  readonly tooltip: string;
  /** The chain shown, for the menu's radio items. */
  readonly chainId: number | undefined;
}

/** The chain the tray follows: the chosen one while it is followed, else the first. */
export function trayChainOf(networks: readonly NetworkStatus[], chosen: number | undefined): NetworkStatus | undefined {
  return networks.find((network) => network.chainId === chosen) ?? networks[0];
}

/**
 * `cost`: when the user chose an action for the tray (settings' `trayAction`), what it costs on the shown chain now
 * (shownCostOf over its /costs): in money, the title is that cost; without a price, the base fee stays and the tooltip
 * says why. Undefined: the base fee (no action chosen, or its costs not known yet).
 */
export function trayModelOf(service: ServiceState, networks: readonly NetworkStatus[], chosenChainId: number | undefined, cost?: ShownCost): TrayModel {
  const unknown = (title: string, tooltip: string): TrayModel => ({ congestion: "unknown", title, tooltip: `gasfees: ${tooltip}`, chainId: undefined });
  switch (service.state) {
    case "paused":
      return unknown("paused", "paused (not serving, not following chains)");
    case "port-in-use":
      return unknown("port in use", `port ${service.port} is in use, the API is not running`);
    case "failed":
      return unknown("stopped", "the API is not running");
    case "stopped":
    case "starting":
      return unknown("…", "starting");
    case "running":
      break;
  }
  const chain = trayChainOf(networks, chosenChainId);
  if (chain === undefined) return unknown("–", `serving ${service.url}, no chains configured`);
  const base = { chainId: chain.chainId };
  if (chain.currentBaseFee === null || chain.busy === null) {
    return { ...base, congestion: "unknown", title: "…", tooltip: `gasfees: ${chain.name} ${chain.state === "no-base-fee" ? "has no base fee" : "syncing"}` };
  }
  const fee = `${shortGwei(chain.currentBaseFee)} gwei`;
  const busy = chain.busy ? `busy (above ${shortGwei(chain.busyThreshold ?? "0")} gwei)` : "normal";
  const stale = chain.state === "degraded" ? ", RPC failing: last known data" : "";
  if (cost?.kind === "money") {
    const money = moneyText(cost.fiat, cost.currency);
    return {
      ...base,
      congestion: congestionOf(chain),
      title: `${money} ${cost.name.toLowerCase()}`,
      tooltip: `gasfees: ${chain.name} ${cost.name} ${money} now (medium tier), base fee ${fee}, ${busy}${stale}`,
    };
  }
  const noCost = cost?.kind === "none" ? ` (no cost shown: ${cost.why})` : "";
  return {
    ...base,
    congestion: congestionOf(chain),
    title: fee,
    tooltip: `gasfees: ${chain.name} base fee ${fee}, ${busy}${stale}${noCost}`,
  };
}
