// The current base fee against a median, in a few words: "+7%", "−12%", "2.4×".

export interface VersusMedian {
  /** current / median. */
  readonly ratio: number;
  /** "+7%", "−12%", "±0%", "2.4×". */
  readonly words: string;
  readonly direction: "above" | "below" | "at";
}

/** Undefined when either is not a number or the median is 0 (nothing to compare with). */
export function versusMedian(currentGwei: string, medianGwei: string): VersusMedian | undefined {
  const current = Number(currentGwei);
  const median = Number(medianGwei);
  if (!Number.isFinite(current) || !Number.isFinite(median) || median <= 0) return undefined;
  const ratio = current / median;
  const percent = Math.round((ratio - 1) * 100);
  if (ratio >= 2) return { ratio, words: `${ratio >= 10 ? Math.round(ratio) : Math.round(ratio * 10) / 10}×`, direction: "above" };
  if (percent === 0) return { ratio, words: "±0%", direction: "at" };
  return { ratio, words: percent > 0 ? `+${percent}%` : `−${-percent}%`, direction: percent > 0 ? "above" : "below" };
}
