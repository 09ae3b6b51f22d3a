import { useCallback, useState } from "react";

const STORAGE_KEY = "gasfees.shownAction";

/**
 * The action whose cost the chain tiles show instead of the base fee (an id of /costs' actions, like "swap"), or
 * undefined for the base fee in Gwei (the default). Kept for the next visit (localStorage: it is no secret).
 */
export function useShownAction(): [string | undefined, (action: string | undefined) => void] {
  const [action, setAction] = useState<string | undefined>(() => readStored() ?? undefined);
  const choose = useCallback((next: string | undefined) => {
    setAction(next);
    try {
      if (next === undefined) window.localStorage.removeItem(STORAGE_KEY);
      else window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage refused (a private window's quota, say): the choice lasts as long as the page.
    }
  }, []);
  return [action, choose];
}

function readStored(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
