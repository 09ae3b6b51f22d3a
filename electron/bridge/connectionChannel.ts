import type { DesktopConnection } from "./bridgeTypes.ts";

/**
 * Asked once, synchronously, by the preload as it loads, so that the page has its base URL and token before its
 * scripts run. The answer is `null` when the asking frame is not the app's main window (trustedSender.ts).
 */
export const CONNECTION_CHANNEL = "gasfees:connection";
export type ConnectionReply = DesktopConnection | null;
