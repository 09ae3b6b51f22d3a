import { join } from "node:path";
import { Menu, nativeImage, type NativeImage, Tray } from "electron";
import type { ShownCost } from "../../shared/core/text/shownCost.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import type { ServiceState } from "../bridge/bridgeTypes.ts";
import type { Congestion } from "../../shared/wire/congestion.ts";
import { type TrayModel, trayModelOf } from "./trayModel.ts";

export interface TrayActions {
  openDashboard(): void;
  copyApiUrl(): void;
  chooseChain(chainId: number): void;
  togglePause(): void;
  quit(): void;
}

export interface AppTray {
  /** `cost`: the chosen action's cost on the chain shown (trayCostOf), or undefined for its base fee. */
  update(service: ServiceState, networks: readonly NetworkStatus[], chosenChainId: number | undefined, paused: boolean, cost?: ShownCost): TrayModel;
  destroy(): void;
}

/** The tray icon (menu bar on macOS): the chosen chain's base fee as title (macOS) or tooltip, its colour by congestion. */
export function createAppTray(iconDir: string, actions: TrayActions): AppTray {
  const icons = new Map<Congestion, NativeImage>(
    (["normal", "busy", "unknown"] as const).map((congestion) => [congestion, nativeImage.createFromPath(join(iconDir, `${congestion}.png`))]),
  );
  const tray = new Tray(icons.get("unknown")!);
  tray.setToolTip("gasfees");
  let menuKey = "";
  let shown: Congestion | undefined;

  return {
    update(service, networks, chosenChainId, paused, cost) {
      const model = trayModelOf(service, networks, chosenChainId, cost);
      if (model.congestion !== shown) {
        tray.setImage(icons.get(model.congestion)!);
        shown = model.congestion;
      }
      tray.setToolTip(model.tooltip);
      if (process.platform === "darwin") tray.setTitle(model.title, { fontType: "monospacedDigit" });
      // Rebuilt only when its items change: a menu replaced while open closes on some systems.
      const key = JSON.stringify([networks.map((network) => [network.chainId, network.name]), model.chainId, paused]);
      if (key !== menuKey) {
        menuKey = key;
        tray.setContextMenu(
          Menu.buildFromTemplate([
            { label: "Open dashboard", click: () => actions.openDashboard() },
            { label: "Copy API URL", click: () => actions.copyApiUrl() },
            {
              label: "Show in tray",
              enabled: networks.length > 0,
              submenu: networks.map((network) => ({
                label: `${network.name} (${network.chainId})`,
                type: "radio" as const,
                checked: network.chainId === model.chainId,
                click: () => actions.chooseChain(network.chainId),
              })),
            },
            { type: "separator" },
            { label: paused ? "Resume" : "Pause", click: () => actions.togglePause() },
            { label: "Quit gasfees", click: () => actions.quit() },
          ]),
        );
      }
      return model;
    },
    destroy: () => tray.destroy(),
  };
}
