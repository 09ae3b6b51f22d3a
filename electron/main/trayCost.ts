// What the tray shows of the action the user chose for it (settings' `trayAction`): the action's cost on the shown
// chain now, computed as GET /networks/{chainId}/costs computes it (costsBody, the one place), then shownCostOf (the
// one rule the dashboard's tiles use too).
import { actionsWith } from "../../shared/core/costs/defaultActions.ts";
import { type ShownCost, shownCostOf } from "../../shared/core/text/shownCost.ts";
import type { Settings } from "../../shared/config/settings.ts";
import { costsBody } from "../../shared/http/costAnswers.ts";
import type { ChainPublication } from "../../shared/service/chainPublication.ts";

/** Undefined without a chosen action or while the chain has no data: the tray shows the base fee. */
export function trayCostOf(publication: ChainPublication | undefined, settings: Pick<Settings, "trayAction" | "actions">): ShownCost | undefined {
  if (settings.trayAction === undefined || publication === undefined) return undefined;
  const { snapshot } = publication;
  if (snapshot === undefined) return undefined;
  const actions = actionsWith(settings.actions);
  return shownCostOf(costsBody({ ...publication, snapshot }, actions), settings.trayAction);
}
