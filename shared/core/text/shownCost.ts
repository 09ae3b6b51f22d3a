// What a glance (a chain tile, the tray) shows when the user chose an action's cost instead of the base fee: the
// action's medium tier in money, or why it cannot, so that the glance keeps the base fee and says so.

/** What a glance needs of a /costs body (shared/wire/costs.ts's Costs has it; core names no wire type). */
export interface GlanceCosts {
  readonly currency: string;
  readonly price: object | null;
  readonly priceProblem: string | null;
  readonly actions: readonly { readonly id: string; readonly name: string; readonly medium: { readonly fiat: string | null } }[];
}

export type ShownCost =
  { readonly kind: "money"; readonly fiat: string; readonly currency: string; readonly name: string } | { readonly kind: "none"; readonly why: string };

/**
 * The chosen action's medium tier in money; "none" (with why, in words) when the chain has no price or no such
 * action; undefined while the chain's costs are not known.
 */
export function shownCostOf(costs: GlanceCosts | undefined, actionId: string): ShownCost | undefined {
  if (costs === undefined) return undefined;
  const action = costs.actions.find((candidate) => candidate.id === actionId);
  if (action === undefined) return { kind: "none", why: `no action "${actionId}" on this chain` };
  if (action.medium.fiat === null || costs.price === null) {
    return { kind: "none", why: `no ${costs.currency} price (${costs.priceProblem ?? "none known"})` };
  }
  return { kind: "money", fiat: action.medium.fiat, currency: costs.currency, name: action.name };
}
