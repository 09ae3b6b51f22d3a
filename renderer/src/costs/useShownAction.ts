import { useStoredChoice } from "../chart/useStoredChoice.ts";

const STORAGE_KEY = "gasfees.shownAction";

/**
 * The action whose cost the tiles, the time ranges and the cheapest hours show instead of the base fee (an id of
 * /costs' actions, like "swap"), or undefined for the base fee in Gwei (the default); kept for the next visit.
 */
export function useShownAction(): [string | undefined, (action: string | undefined) => void] {
  return useStoredChoice<string | undefined>(STORAGE_KEY, (stored) => stored ?? undefined);
}
