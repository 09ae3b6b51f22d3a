// The main process's side of the bridge, built from its declaration (electron/bridge/bridgeCalls.ts): one handler
// per call, which refuses an untrusted sender and arguments that fail the call's schema before the implementation
// runs. Pure (no Electron): ipc.ts registers the handlers with ipcMain, and plain Node tests drive them.
import { z } from "zod";
import { type BridgeDeclarations, declarationsOf } from "../bridge/defineCalls.ts";

/** A call from a sender that is not the app's main window, top frame, own page. */
export class BridgeCallRefusedError extends Error {
  override name = "BridgeCallRefusedError";
}

/** A call whose arguments do not match its declaration: the message names the call and each problem. */
export class BridgeArgumentsError extends Error {
  override name = "BridgeArgumentsError";
}

export interface BridgeHandler<Event> {
  readonly channel: string;
  /** Answers one call: the implementation's result, or a rejection with one of the errors above. */
  handle(event: Event, args: readonly unknown[]): Promise<unknown>;
}

export interface BridgeGuard<Event> {
  /** Why a sender must be refused, or undefined when it may call (see trustedSender.ts). */
  readonly untrustedSenderReason: (event: Event) => string | undefined;
  /** Told of every refused call (for the log), with its event: never the arguments' values, which may be anything. */
  readonly onRefused?: (channel: string, reason: string, event: Event) => void;
}

type Implementation = (...args: never[]) => unknown;
interface ImplementationTree {
  readonly [name: string]: Implementation | ImplementationTree;
}

export function bridgeHandlers<Event>(calls: BridgeDeclarations, implementations: object, guard: BridgeGuard<Event>): Array<BridgeHandler<Event>> {
  return declarationsOf(calls).flatMap(({ path, declaration }) => {
    if (declaration.kind !== "invoke") return [];
    const implementation = implementationAt(implementations as ImplementationTree, path);
    const { channel, args: schema } = declaration;
    return [
      {
        channel,
        async handle(event: Event, args: readonly unknown[]) {
          const untrusted = guard.untrustedSenderReason(event);
          if (untrusted !== undefined) {
            guard.onRefused?.(channel, untrusted, event);
            throw new BridgeCallRefusedError(`${channel} refused: ${untrusted}`);
          }
          const parsed = schema.safeParse(args);
          if (!parsed.success) {
            const problems = z.prettifyError(parsed.error);
            guard.onRefused?.(channel, `invalid arguments: ${problems}`, event);
            throw new BridgeArgumentsError(`${channel} refused: its arguments are not valid:\n${problems}`);
          }
          return await implementation(...(parsed.data as never[]));
        },
      },
    ];
  });
}

function implementationAt(tree: ImplementationTree, path: readonly string[]): Implementation {
  let node: Implementation | ImplementationTree | undefined = tree;
  for (const name of path) node = typeof node === "object" ? node[name] : undefined;
  if (typeof node !== "function") throw new Error(`the bridge call ${path.join(".")} has no implementation in the main process`);
  return node;
}
