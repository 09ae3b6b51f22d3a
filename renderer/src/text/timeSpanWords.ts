// A bucket's span of time as the reader's clock shows it.

const DAY = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short" });
const CLOCK = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });

/** "Tue 4 Nov, 14:00–14:05" for unix seconds `startSeconds` to `endSeconds` (the end as a time of day only). */
export function bucketTimeSpan(startSeconds: number, endSeconds: number): string {
  return `${DAY.format(startSeconds * 1000)}, ${CLOCK.format(startSeconds * 1000)}–${CLOCK.format(endSeconds * 1000)}`;
}
