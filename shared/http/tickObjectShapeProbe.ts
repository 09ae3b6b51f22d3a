// The child process of tickObjectShape.test.ts (node --allow-natives-syntax --expose-gc): makes nextTick's tick
// objects, then runs full collections while no tick is pending (as a service does, in its backfill and when idle),
// makes ticks again, and prints nextTick's feedback (V8's %DebugPrint, to stdout). With "hold",
// holdTickObjectShape() runs first.
import { holdTickObjectShape } from "./tickObjectShape.ts";

const hold = process.argv[2] === "hold" ? holdTickObjectShape() : undefined;
const { gc } = globalThis;
if (gc === undefined) throw new Error("tickObjectShapeProbe.ts runs with --expose-gc");
const collectGarbage = () => void gc();
// Compiled at run time, so that this file parses without the natives syntax (which only a string can carry).
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const debugPrint = new Function("value", "%DebugPrint(value)") as (value: unknown) => void;

/** More than V8 retains an unused map for (--retain-maps-for-n-gc, 2 by default). */
const FULL_COLLECTIONS = 6;
const noop = () => {};
const makeTicks = () => {
  for (let index = 0; index < 20_000; index++) process.nextTick(noop);
};

// Each step in a turn of its own: the ticks of one have all run before the next (setImmediate runs them in between).
const steps: Array<() => void> = [
  makeTicks,
  makeTicks,
  ...Array.from({ length: FULL_COLLECTIONS }, () => collectGarbage),
  makeTicks,
  // The function itself is printed (its feedback), not called.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  () => debugPrint(process.nextTick),
  () => hold?.release(),
];
const runSteps = () => {
  steps.shift()!();
  if (steps.length > 0) setImmediate(runSteps);
};
setImmediate(runSteps);
