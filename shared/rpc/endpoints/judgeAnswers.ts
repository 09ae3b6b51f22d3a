/** One source's answer to a question several sources were asked (a block's base fee, a hash, a price round). */
export interface Witness {
  /** Who said it: an endpoint's redacted URL, or "the history held" for what was kept from an unknown source. */
  readonly source: string;
  /** What it said, as a comparable text (a fee in wei, a hash, a price and its round). */
  readonly value: string;
}

/**
 * What the answers come to. `agreed`: every source said the same. `majority`: more sources said `value` than any other
 * answer (at least two of them), and `outliers` said otherwise. `disputed`: no answer has such a majority (two sources,
 * two stories): nothing settles it, and it is said, never settled silently.
 */
export type Judgement =
  | { readonly kind: "agreed"; readonly value: string }
  | { readonly kind: "majority"; readonly value: string; readonly outliers: readonly Witness[] }
  | { readonly kind: "disputed"; readonly stories: readonly Witness[] };

/**
 * Judges answers to one question, a source counted once (its first answer: a source repeating itself is one witness).
 * Fewer than two sources cannot disagree: `agreed`.
 */
export function judgeAnswers(witnesses: readonly Witness[]): Judgement {
  const bySource = new Map<string, Witness>();
  for (const witness of witnesses) if (!bySource.has(witness.source)) bySource.set(witness.source, witness);
  const distinct = [...bySource.values()];
  const tally = new Map<string, number>();
  for (const witness of distinct) tally.set(witness.value, (tally.get(witness.value) ?? 0) + 1);
  if (tally.size <= 1) return Object.freeze({ kind: "agreed", value: distinct[0]?.value ?? "" });
  const ranked = [...tally].sort((a, b) => b[1] - a[1]);
  const [top, second] = ranked;
  if (top![1] >= 2 && top![1] > second![1]) {
    return Object.freeze({ kind: "majority", value: top![0], outliers: Object.freeze(distinct.filter((witness) => witness.value !== top![0])) });
  }
  return Object.freeze({ kind: "disputed", stories: Object.freeze(distinct) });
}

/** How two answers differed, for a status and a log line: "block 123's base fee: 2000 at A, 1000 at B and C". */
export function differenceText(question: string, judgement: Exclude<Judgement, { kind: "agreed" }>): string {
  const witnesses = judgement.kind === "majority" ? judgement.outliers : judgement.stories;
  const bySource = witnesses.map((witness) => `${witness.value} at ${witness.source}`);
  return judgement.kind === "majority"
    ? `${question}: ${bySource.join(", ")}, where the others give ${judgement.value}`
    : `${question}: ${bySource.join(", ")}`;
}
