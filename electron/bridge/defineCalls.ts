// How a bridge call is declared, once, for both sides: the preload builds the page's functions from the declarations
// (electron/preload/buildBridgeApi.ts) and the main process registers a validated handler for each
// (electron/main/bridgeHandlers.ts). Plain data and types only, so that the renderer may import the types.
import type { z } from "zod";

declare const RESULT: unique symbol;

/** Carries a type and nothing else: the result of a call, or the payload of an event. */
export interface Returns<T> {
  readonly [RESULT]?: T;
}

/** Names the result type of a call (or the payload of an event) in its declaration. */
export const returns = <T>(): Returns<T> => ({});

/** A call from the page, answered by the main process: its channel, its arguments' schema and its result type. */
export interface InvokeCall<Args extends z.ZodTuple, Result> extends Returns<Result> {
  readonly kind: "invoke";
  readonly channel: string;
  readonly args: Args;
}

/** Something the main process tells the page: the page subscribes, and stops with the function it is given. */
export interface PushEvent<Payload> extends Returns<Payload> {
  readonly kind: "event";
  readonly channel: string;
}

export function invokeCall<Args extends z.ZodTuple, Result>(channel: string, args: Args, _result: Returns<Result>): InvokeCall<Args, Result> {
  return { kind: "invoke", channel, args };
}

export function pushEvent<Payload>(channel: string, _payload: Returns<Payload>): PushEvent<Payload> {
  return { kind: "event", channel };
}

/** A tree of declarations: its leaves are calls and events, its branches name groups (`settings.get`). */
export interface BridgeDeclarations {
  readonly [name: string]: InvokeCall<z.ZodTuple, unknown> | PushEvent<unknown> | BridgeDeclarations;
}

type ArgsOf<Args extends z.ZodTuple> = Extract<z.input<Args>, readonly unknown[]>;
type ParsedArgsOf<Args extends z.ZodTuple> = Extract<z.output<Args>, readonly unknown[]>;

/** What the page is given for a tree of declarations: a function per call and a subscription per event. */
export type BridgeApiOf<T> = {
  readonly [K in keyof T]: T[K] extends InvokeCall<infer Args, infer Result>
    ? (...args: ArgsOf<Args>) => Promise<Result>
    : T[K] extends PushEvent<infer Payload>
      ? (listener: (payload: Payload) => void) => () => void
      : BridgeApiOf<T[K]>;
};

/** What the main process implements for a tree of declarations: each call, given its arguments once they are valid. */
export type BridgeImplementationOf<T> = {
  readonly [K in keyof T as T[K] extends PushEvent<unknown> ? never : K]: T[K] extends InvokeCall<infer Args, infer Result>
    ? (...args: ParsedArgsOf<Args>) => Result | Promise<Result>
    : BridgeImplementationOf<T[K]>;
};

/** Every call and event of a tree with its path (`["settings", "get"]`), in declaration order. */
export function declarationsOf(
  tree: BridgeDeclarations,
  path: readonly string[] = [],
): Array<{ readonly path: readonly string[]; readonly declaration: InvokeCall<z.ZodTuple, unknown> | PushEvent<unknown> }> {
  return Object.entries(tree).flatMap(([name, node]) => {
    const here = [...path, name];
    return isDeclaration(node) ? [{ path: here, declaration: node }] : declarationsOf(node, here);
  });
}

/** What the page's side needs of a declaration at run time: where the member goes, its channel, and what it is. */
export interface ChannelEntry {
  readonly path: readonly string[];
  readonly channel: string;
  readonly kind: "invoke" | "event";
}

/** The declarations without their schemas: plain data, as the preload carries it (see bridgeChannels.ts). */
export function channelListOf(tree: BridgeDeclarations): ChannelEntry[] {
  return declarationsOf(tree).map(({ path, declaration }) => ({ path, channel: declaration.channel, kind: declaration.kind }));
}

function isDeclaration(node: BridgeDeclarations[string]): node is InvokeCall<z.ZodTuple, unknown> | PushEvent<unknown> {
  return (node.kind === "invoke" || node.kind === "event") && typeof node.channel === "string";
}
