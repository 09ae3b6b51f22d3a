/** The SSE event name of a NetworkEvent (shared/wire/networkEvent.ts): a chain's status and changed blocks. */
export const NETWORK_EVENT_NAME = "network";
