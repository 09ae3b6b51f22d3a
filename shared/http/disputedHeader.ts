import type { ChainPublication } from "../service/chainPublication.ts";

/**
 * `X-Data-Disputed: true` on every answer of a chain's data while its endpoints disagree with no majority to settle it
 * (CONTRACT.md, "Following chains"); nothing otherwise. The chain's status says the same (`disputed`, `disputes`).
 */
export function disputedHeader(publication: Pick<ChainPublication, "status">): Record<string, string> {
  return publication.status.disputed === true ? { "X-Data-Disputed": "true" } : {};
}
