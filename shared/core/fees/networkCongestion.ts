/**
 * Where the current base fee stands among the statistics window's base fees, from 0 (below every one) to 1 (above
 * every one): its mid-rank, (below + equal / 2) / N, rounded to 4 decimals as the hosted service writes it, from a
 * value with `below` values under it and `notAbove` at most it, among `n`: (2 * below + equal) / (2n). A current base
 * fee equal to every base fee of the window is 0.5.
 */
export function congestionFromRanks(below: number, notAbove: number, n: number): number {
  if (!(n > 0)) throw new RangeError("need at least one base fee");
  // As an integer count of ten-thousandths, rounded half up.
  const tenThousandths = Math.floor(((below + notAbove) * 10_000 + n) / (2 * n));
  return tenThousandths / 10_000;
}
