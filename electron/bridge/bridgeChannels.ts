// The bridge's declarations (bridgeCalls.ts) without their schemas: each member's path, channel and kind, which is
// all the preload needs to build the page's functions. The preload's build (scripts/buildElectron.mjs) replaces this
// module with the list computed here, as JSON, so that the sandboxed preload carries no validation library: the main
// process validates every call.
import { BRIDGE_CALLS } from "./bridgeCalls.ts";
import { channelListOf } from "./defineCalls.ts";

export const BRIDGE_CHANNELS = channelListOf(BRIDGE_CALLS);
