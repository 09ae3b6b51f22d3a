import { useCallback, useState } from "react";

/**
 * A choice of the page kept for the next visit in localStorage (it is no secret): read once with `read` (which gets
 * null when nothing is stored, or storage is refused), written on each change; `undefined` removes it.
 */
export function useStoredChoice<T extends string | undefined>(key: string, read: (stored: string | null) => T): [T, (next: T) => void] {
  const [choice, setChoice] = useState<T>(() => read(readStored(key)));
  const choose = useCallback(
    (next: T) => {
      setChoice(next);
      try {
        if (next === undefined) window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, next);
      } catch {
        // Storage refused (a private window's quota, say): the choice lasts as long as the page.
      }
    },
    [key],
  );
  return [choice, choose];
}

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}
