// The dashboard's copy of one chain's blocks: the newest ones as chart points, patched by each event.
import { HISTORY_BLOCKS } from "../../../shared/core/fees/historyLength.ts";
import type { BlockRun } from "../../../shared/wire/networkEvent.ts";

export interface FeePoint {
  readonly block: number;
  /** For drawing only; the exact value is `exact`. */
  readonly gwei: number;
  /** The API's Gwei string. */
  readonly exact: string;
  /** On a chain with blob fees: the block's blob base fee (the API's Gwei string), null where not known. */
  readonly blobExact?: string | null;
  /** On a chain with blob fees: the block's blob gas used over its maximum (0..1), null where not known. */
  readonly blobUsedRatio?: number | null;
}

/**
 * The points after `run` (the client half of the events' delta protocol, shared/wire/networkEvent.ts): all of them
 * replaced (`all`), or those before `run.firstBlock` kept and the rest replaced by the run (`from`); the newest 500 kept.
 */
export function applyBlocks(points: readonly FeePoint[], run: BlockRun): readonly FeePoint[] {
  const first = Number(run.firstBlock);
  const incoming = run.baseFees.map((exact, index): FeePoint => {
    const point = { block: first + index, gwei: Number(exact), exact };
    if (run.blobBaseFees === undefined) return point;
    return { ...point, blobExact: run.blobBaseFees[index] ?? null, blobUsedRatio: run.blobGasUsedRatios?.[index] ?? null };
  });
  if (run.kind === "all") return incoming.length > HISTORY_BLOCKS ? incoming.slice(incoming.length - HISTORY_BLOCKS) : incoming;
  let keep = points.length;
  while (keep > 0 && points[keep - 1]!.block >= first) keep--;
  const merged = keep === points.length ? points.concat(incoming) : points.slice(0, keep).concat(incoming);
  return merged.length > HISTORY_BLOCKS ? merged.slice(merged.length - HISTORY_BLOCKS) : merged;
}
