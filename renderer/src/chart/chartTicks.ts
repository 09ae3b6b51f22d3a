// Where the chart's axes put their ticks: at round values, so that a reader can take a value off the chart.

/** Block numbers at a round step (1, 2 or 5 times a power of ten), about six from `first` to `last`, both included. */
export function blockTicks(first: number, last: number): number[] {
  const span = Math.max(1, last - first);
  const raw = span / 6;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  // Whole blocks only: a young chain's few blocks would otherwise get ticks at block 0.5.
  const step = Math.max(
    1,
    [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw)!,
  );
  const ticks: number[] = [];
  for (let tick = Math.ceil(first / step) * step; tick <= last; tick += step) ticks.push(tick);
  return ticks;
}

/**
 * Gwei ticks at a round step (1, 2, 2.5 or 5 times a power of ten), about `count` steps, from the step at or below
 * `low` (never below 0) to the one at or above `high`, at least two: the first and last are the y axis' domain.
 */
export function feeTicks(lowGwei: number, highGwei: number, count = 5): number[] {
  const span = highGwei - lowGwei || Math.abs(highGwei) || 1;
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw)!;
  let first = Math.max(0, Math.floor(lowGwei / step));
  let last = Math.ceil(highGwei / step);
  // Every value on one tick (a base fee that has not moved): one step more on each side, so that the axis has a span.
  if (first === last) {
    first = Math.max(0, first - 1);
    last += 1;
  }
  const ticks: number[] = [];
  // toPrecision(12): 3 * 0.1 is 0.30000000000000004 in floats, and a tick should read 0.3.
  for (let index = first; index <= last; index++) ticks.push(Number((index * step).toPrecision(12)));
  return ticks;
}
