import { createHook } from "node:async_hooks";

/** What holdTickObjectShape() keeps; `release()` lets it go (the server's close). */
export interface TickObjectShapeHold {
  /** The tick object held: one made by `process.nextTick`, already run. */
  readonly held: object | undefined;
  release(): void;
}

const noop = () => {};

/**
 * Keeps one of `process.nextTick`'s tick objects alive, so that V8 keeps the hidden classes (maps) its object literal
 * passes through, and nextTick stays fast for the life of the process.
 *
 * Why: nextTick builds each tick as `{ [async_id_symbol]: ..., [trigger_async_id_symbol]: ..., [frame]: ..., callback,
 * args }`. V8 adds a computed key through `DefineKeyedOwnPropertyInLiteral`, whose feedback is monomorphic or
 * megamorphic, nothing between: a single object arriving with another map than the one recorded makes it megamorphic
 * for good. The maps the literal passes through have no objects of their own; they live while a finished tick object
 * does (through its map's back pointers), or for a couple of full collections after their last use (V8's retained
 * maps). A process whose full collections find no tick pending a few times in a row (the service runs them often: in
 * its backfill, and its memory reducer's once idle) loses them; the next tick records new maps, the literal's sites
 * turn megamorphic, and from then on every nextTick goes through V8's runtime. node:http calls it about ten times a
 * request: such a process used 1.3 to 1.7 times the CPU a request of one that did not (docs/benchmarks.md). A held
 * tick object keeps its map, and the maps before it, alive. `tickObjectShape.test.ts` shows both the loss and this
 * hold on the Node it runs on.
 *
 * The tick object comes from an async hook's `init`, enabled around one nextTick call and disabled at once: that
 * leaves nothing behind, where `executionAsyncResource()` would route every later native callback through a trampoline.
 */
export function holdTickObjectShape(): TickObjectShapeHold {
  let held: object | undefined;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === "TickObject") held ??= resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(noop);
  } finally {
    hook.disable();
  }
  return {
    get held() {
      return held;
    },
    release() {
      held = undefined;
    },
  };
}
