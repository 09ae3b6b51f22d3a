/**
 * A key as it may be shown or logged: its first and last four characters, enough to recognise it and not enough to
 * use it (`0123…cdef`). A key too short to keep anything hidden is shown as dots only.
 */
export function maskApiKey(key: string): string {
  return key.length <= 12 ? "•".repeat(key.length) : `${key.slice(0, 4)}…${key.slice(-4)}`;
}
