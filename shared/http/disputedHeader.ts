import type { ChainPublication } from "../service/chainPublication.ts";
import { type HeaderList, NO_HEADER_LIST } from "./headerList.ts";

/**
 * `X-Data-Disputed: true` on every answer of a chain's data while its endpoints disagree with no majority to settle it
 * (CONTRACT.md, "Following chains"); nothing otherwise. The chain's status says the same (`disputed`, `disputes`).
 */
export function disputedHeader(publication: Pick<ChainPublication, "status">): Record<string, string> {
  return publication.status.disputed === true ? { "X-Data-Disputed": "true" } : {};
}

const DISPUTED_LIST: HeaderList = Object.freeze(["X-Data-Disputed", "true"]);

/** The same as a header list (a JSON reply's headers). */
export function disputedHeaderList(publication: Pick<ChainPublication, "status">): HeaderList {
  return publication.status.disputed === true ? DISPUTED_LIST : NO_HEADER_LIST;
}
