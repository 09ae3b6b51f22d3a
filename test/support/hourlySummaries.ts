// Hourly summaries for tests and benches: a deterministic base fee that wanders by the hour (a daily cycle and a
// random walk), summarised as the service keeps them.
import { HOUR_SECONDS, type HourlySummary } from "../../shared/core/outlook/hourlySummary.ts";

const GWEI = 1_000_000_000n;

/**
 * `count` consecutive closed hours from `firstStart` (a multiple of 3,600), each from 300 blocks, oldest first; the same
 * arguments give the same hours.
 */
export function syntheticHours(firstStart: number, count: number, seed = 1): HourlySummary[] {
  let state = seed >>> 0 || 1;
  const random = () => {
    // xorshift32: deterministic and fast.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
  let level = 20;
  return Array.from({ length: count }, (_, index) => {
    level = Math.min(200, Math.max(2, level * Math.exp((random() - 0.5) * 0.2)));
    const daily = 1 + 0.3 * Math.sin((2 * Math.PI * index) / 24);
    const p50 = level * daily;
    const wei = (gwei: number) => (BigInt(Math.round(gwei * 1e6)) * GWEI) / 1_000_000n;
    const spread = 0.1 + random() * 0.3;
    return Object.freeze({
      start: firstStart + index * HOUR_SECONDS,
      blocks: 300,
      sampled: false,
      min: wei(p50 * (1 - spread)),
      p10: wei(p50 * (1 - spread / 2)),
      p50: wei(p50),
      p90: wei(p50 * (1 + spread / 2)),
      max: wei(p50 * (1 + spread)),
      last: wei(p50 * (1 + (random() - 0.5) * spread)),
    });
  });
}
