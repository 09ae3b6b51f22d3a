// Response headers as node:http's writeHead takes them flat: [name, value, name, value, ...]. Node reads such a list
// with an index loop, where an object costs a for-in walk, an own-property check per name and, when it is built a
// header at a time, a new hidden class per header; the fee endpoints' answers are made of lists prepared once per
// publication (npm run bench -- wrk; docs/benchmarks.md).

/** Header names and values, alternating. */
export type HeaderList = readonly string[];

export const NO_HEADER_LIST: HeaderList = Object.freeze([]);

/**
 * Appends a list's headers to `target`. An index loop: the prepared lists are frozen, and V8's slice, spread and for-of
 * may leave their fast paths for frozen arrays.
 */
export function appendHeaders(target: string[], list: HeaderList): void {
  for (let index = 0; index < list.length; index++) target.push(list[index]!);
}
