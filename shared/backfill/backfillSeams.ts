import { differenceText, judgeAnswers, type Witness } from "../rpc/endpoints/judgeAnswers.ts";
import type { BackfillPage } from "./backfillPage.ts";

/** A block's fee as the history holds it, and who supplied it (an endpoint's redacted URL; undefined: not known). */
export interface HeldFee {
  readonly baseFeeWei: bigint;
  readonly source: string | undefined;
}

/** What the history held is called when its source is not known (blocks kept from before a restart). */
export const HISTORY_HELD = "the history held";

/** A page and the endpoint it came from. */
export interface SourcedPage {
  readonly page: BackfillPage;
  readonly source: string;
}

/**
 * Where a page meets the history held, what the sources say: `fits` (every seam agrees, or none is held); `refetch`
 * (a seam disagrees: ask another endpoint for the same page before anything is kept); once a second page is there,
 * `keep` (the page of the majority; `outliers`: endpoints that said otherwise, to set aside for lying; `corrections`:
 * seam blocks the history holds wrongly, by the majority), or `disputed` (no majority: nothing is changed, the
 * disagreement said in `how`).
 */
export type SeamVerdict =
  | { readonly kind: "fits" }
  | { readonly kind: "refetch"; readonly how: string }
  | {
      readonly kind: "keep";
      readonly page: SourcedPage;
      readonly outliers: readonly { readonly source: string; readonly how: string }[];
      readonly corrections: readonly { readonly block: bigint; readonly baseFeeWei: bigint }[];
    }
  | { readonly kind: "disputed"; readonly subject: string; readonly how: string; readonly keep: SourcedPage | undefined };

/**
 * Judges the seams of `first` against the history held (`heldAt`), and, when a second page of the same blocks came
 * from another endpoint, the two pages and the history together: every seam block and every block of the pages is a
 * question, each source (an endpoint, or the history held when its source is not known) one witness; a source whose
 * answer stands against a majority is an outlier, two stories with no majority a dispute.
 */
export function judgeSeams(first: SourcedPage, heldAt: (block: bigint) => HeldFee | undefined, second?: SourcedPage): SeamVerdict {
  const questions = new Map<bigint, Witness[]>();
  const ask = (block: bigint, witness: Witness) => {
    const witnesses = questions.get(block) ?? [];
    witnesses.push(witness);
    questions.set(block, witnesses);
  };
  const pages = second === undefined ? [first] : [first, second];
  for (const { page, source } of pages) {
    for (const seam of page.seams ?? []) ask(seam.block, { source, value: String(seam.baseFeeWei) });
  }
  for (const block of [...questions.keys()]) {
    const held = heldAt(block);
    if (held === undefined) questions.delete(block);
    else ask(block, { source: held.source ?? HISTORY_HELD, value: String(held.baseFeeWei) });
  }
  if (second === undefined) {
    for (const [block, witnesses] of questions) {
      const judgement = judgeAnswers(witnesses);
      if (judgement.kind !== "agreed") return { kind: "refetch", how: differenceText(`block ${block}'s base fee`, judgement) };
    }
    return { kind: "fits" };
  }
  const outliers = new Map<string, string>();
  const corrections: { block: bigint; baseFeeWei: bigint }[] = [];
  // The seams first (the history held is a witness there), newest first.
  for (const [block, witnesses] of [...questions].sort((a, b) => (a[0] < b[0] ? 1 : -1))) {
    const judgement = judgeAnswers(witnesses);
    if (judgement.kind === "agreed") continue;
    const how = differenceText(`block ${block}'s base fee`, judgement);
    if (judgement.kind === "disputed") {
      // Nothing held changes: the page that agrees with the history held (if one does) is kept, the other is not.
      const held = heldAt(block);
      const agreeing = held === undefined ? undefined : pages.find(({ page }) => pageFeeAt(page, block) === held.baseFeeWei);
      return { kind: "disputed", subject: `block ${block}`, how, keep: agreeing };
    }
    for (const outlier of judgement.outliers) {
      if (outlier.source === HISTORY_HELD || isHeldSourceOnly(outlier.source, block, heldAt, pages)) {
        corrections.push({ block, baseFeeWei: BigInt(judgement.value) });
      }
      if (outlier.source !== HISTORY_HELD && !outliers.has(outlier.source)) outliers.set(outlier.source, how);
    }
  }
  // Then the two pages' own blocks: a page may meet the history right and differ inside. Where one of the two was found
  // an outlier at a seam, that explains it; otherwise two pages, two stories, and nothing to settle them.
  if (!outliers.has(first.source) && !outliers.has(second.source)) {
    const firstFees = new Map(first.page.baseFeesWei.map((fee, i) => [first.page.firstBlock + BigInt(i), fee]));
    for (let i = second.page.baseFeesWei.length - 1; i >= 0; i--) {
      const block = second.page.firstBlock + BigInt(i);
      const fee = second.page.baseFeesWei[i]!;
      const other = firstFees.get(block);
      if (other === undefined || other === fee) continue;
      const judgement = judgeAnswers([
        { source: first.source, value: String(other) },
        { source: second.source, value: String(fee) },
      ]);
      if (judgement.kind === "disputed")
        return { kind: "disputed", subject: `block ${block}`, how: differenceText(`block ${block}'s base fee`, judgement), keep: undefined };
    }
  }
  const kept = pages.find(({ source }) => !outliers.has(source));
  if (kept === undefined) return { kind: "disputed", subject: `blocks ${first.page.firstBlock}..`, how: [...outliers.values()].join("; "), keep: undefined };
  return {
    kind: "keep",
    page: kept,
    outliers: [...outliers].map(([source, how]) => ({ source, how })),
    // A block inside the page kept is written with it; a seam block the history holds wrongly is corrected on its own.
    corrections: corrections.filter((correction) => !inside(kept.page, correction.block)),
  };
}

function inside(page: BackfillPage, block: bigint): boolean {
  return block >= page.firstBlock && block < page.firstBlock + BigInt(page.baseFeesWei.length);
}

/** The page's fee of `block`, a seam's included; undefined when the page says nothing of it. */
function pageFeeAt(page: BackfillPage, block: bigint): bigint | undefined {
  const offset = block - page.firstBlock;
  if (offset >= 0n && offset < BigInt(page.baseFeesWei.length)) return page.baseFeesWei[Number(offset)];
  return page.seams?.find((seam) => seam.block === block)?.baseFeeWei;
}

/** The outlier is the held block's source, and said it only through what the history holds (no page of its own now). */
function isHeldSourceOnly(source: string, block: bigint, heldAt: (block: bigint) => HeldFee | undefined, pages: readonly SourcedPage[]): boolean {
  return heldAt(block)?.source === source && !pages.some((page) => page.source === source);
}
