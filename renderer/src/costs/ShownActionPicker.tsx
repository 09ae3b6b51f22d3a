import type { ActionCost } from "../../../shared/wire/costs.ts";

const GWEI = "";

/**
 * What the chain tiles, the 1 h / 24 h / 7 d views and the cheapest hours show: the base fee in Gwei, or the cost of
 * one action in the currency. The actions offered are those of the shown chain's costs; a chosen one stays offered
 * while they are not known yet.
 */
export function ShownActionPicker({
  actions,
  shown,
  onChoose,
}: {
  actions: readonly Pick<ActionCost, "id" | "name">[] | undefined;
  shown: string | undefined;
  onChoose: (action: string | undefined) => void;
}) {
  const offered = actions ?? [];
  const missing = shown !== undefined && !offered.some((action) => action.id === shown);
  return (
    <label
      className="shown-action"
      title="The base fee in Gwei, or what one action costs in money: now on the chain tiles (the medium tier), and over 1 h, 24 h and 7 d and in the cheapest hours (at the base fee and the price of the time)"
    >
      <span className="shown-action-label">Show</span>
      <select data-testid="shown-action" value={shown ?? GWEI} onChange={(event) => onChoose(event.target.value === GWEI ? undefined : event.target.value)}>
        <option value={GWEI}>base fee (Gwei)</option>
        {offered.map((action) => (
          <option key={action.id} value={action.id}>
            {action.name} cost
          </option>
        ))}
        {missing ? <option value={shown}>{shown} cost</option> : null}
      </select>
    </label>
  );
}
