/**
 * A failed bridge call's message for the page. Electron prefixes a rejected call's message with its channel
 * ("Error invoking remote method 'gasfees:…': BridgeArgumentsError: …"); the main process's own words follow.
 */
export function failureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Error invoking remote method '[^']*': (?:\w*Error: )?/, "");
}
