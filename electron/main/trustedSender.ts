// Who may call the bridge, as a pure function (ipc.ts applies it to every call), so that plain Node tests prove it.
import { isAppUrl } from "./security.ts";

/** The parts of an Electron IPC event the check reads (IpcMainEvent and IpcMainInvokeEvent have them). */
export interface IpcSenderOf<Contents> {
  readonly sender: Contents;
  /** Null once the frame has navigated away or been destroyed. */
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null;
}

/**
 * Why a bridge call must be refused, or undefined when it comes from the main window's own web contents, from its
 * top frame, on a page of the app's origin. Anything else (another window or web contents, a subframe, a page that
 * got in from elsewhere, a frame already gone) is refused.
 */
export function untrustedSenderReason<Contents>(event: IpcSenderOf<Contents>, mainWindowContents: Contents | undefined): string | undefined {
  if (mainWindowContents === undefined) return "the main window is closed";
  if (event.sender !== mainWindowContents) return "the sender is not the main window";
  const frame = event.senderFrame;
  if (frame === null) return "the sending frame has navigated away or closed";
  if (frame.parent !== null) return "the sender is a subframe, not the window's top frame";
  if (!isAppUrl(frame.url)) return "the sending page is not one of the app's own";
  return undefined;
}
