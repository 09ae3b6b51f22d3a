import { useEffect, useState } from "react";

/** How often the clock is looked at: the hour's change shows within this. */
const LOOK_EVERY_MS = 20_000;

/** The start (epoch ms) of the reader's current local hour; the calling component re-renders when the hour changes. */
export function useLocalHour(): number {
  const [hourStartMs, setHourStartMs] = useState(() => localHourStart(Date.now()));
  useEffect(() => {
    const timer = window.setInterval(() => setHourStartMs(localHourStart(Date.now())), LOOK_EVERY_MS);
    return () => window.clearInterval(timer);
  }, []);
  return hourStartMs;
}

function localHourStart(nowMs: number): number {
  const date = new Date(nowMs);
  date.setMinutes(0, 0, 0);
  return date.getTime();
}
