// The history file's trouble in plain words, for the dashboard's banner (ChainView.tsx).
import type { StoreHealth } from "../../../shared/wire/networkStatus.ts";

const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

const WHY: Readonly<Record<NonNullable<StoreHealth["problem"]>, string>> = {
  locked: "another program (another gasfees on the same folder?) holds the file locked",
  full: "the disk is full",
  unwritable: "the file cannot be written (permissions, or a disk error)",
  damaged: "the file is damaged",
};

/**
 * What to tell while the history file does not take writes, or undefined while it does (or there is none): why, and
 * that nothing is lost while the queue holds the blocks (or how many were dropped from it).
 */
export function storeWords(store: StoreHealth): { readonly title: string; readonly detail: string } | undefined {
  if (store.state !== "failing") return undefined;
  const waiting = store.unsavedBlocks === 1 ? "1 block waits" : `${GROUPED.format(store.unsavedBlocks)} blocks wait`;
  const dropped = store.droppedBlocks === 0 ? "" : ` ${GROUPED.format(store.droppedBlocks)} did not fit in memory: the next start fetches them again.`;
  return {
    title: "The history is not being saved.",
    detail: `${store.problem === null ? "The history file does not take writes" : `${WHY[store.problem][0]!.toUpperCase()}${WHY[store.problem].slice(1)}`}; ${waiting} in memory and will be written once it works again.${dropped}`,
  };
}
