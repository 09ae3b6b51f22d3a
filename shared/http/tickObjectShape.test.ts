// holdTickObjectShape() against the loss it prevents, on the Node the tests run on: a child process
// (tickObjectShapeProbe.ts) makes ticks, runs full collections while none is pending, and prints nextTick's feedback.
// Without the hold, the literal's sites after the first turn megamorphic (every later nextTick then goes through V8's
// runtime); with it they stay monomorphic. The child compiles on the main thread (--no-concurrent-recompilation): a
// compile job under way on another thread also keeps the maps alive, which makes the loss depend on timing (as it does
// in a service) rather than happen every time.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { holdTickObjectShape } from "./tickObjectShape.ts";

const PROBE = fileURLToPath(new URL("./tickObjectShapeProbe.ts", import.meta.url));

/** The states of nextTick's `DefineKeyedOwnPropertyInLiteral` sites after the probe's collections. */
async function literalSiteStates(mode: "hold" | "none"): Promise<string[]> {
  // Only the loader of the TypeScript files: the test runner's other options are not the probe's.
  const loader = process.execArgv.filter((arg) => arg.startsWith("--import"));
  // V8 prints to the C library's stdout, which a pipe can cut short at exit: the probe writes to a file instead.
  const dir = mkdtempSync(join(tmpdir(), "tick-shape-"));
  const output = join(dir, "feedback.txt");
  const fd = openSync(output, "w");
  try {
    const child = spawn(process.execPath, [...loader, "--allow-natives-syntax", "--expose-gc", "--no-concurrent-recompilation", PROBE, mode], {
      stdio: ["ignore", fd, "inherit"],
    });
    const [code] = (await once(child, "exit")) as [number | null];
    assert.equal(code, 0, "the probe failed");
    const printed = readFileSync(output, "utf8");
    const states = [...printed.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]!);
    assert.ok(states.length >= 2, `the probe printed no feedback of nextTick's tick literal: ${printed.slice(0, 2000)}`);
    return states;
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

test("without a held tick object, full collections while no tick is pending turn nextTick's literal megamorphic", async () => {
  const states = await literalSiteStates("none");
  // If this fails, this Node keeps the maps without help, and holdTickObjectShape() can go.
  assert.ok(states.includes("MEGAMORPHIC"), `expected the loss on this Node; the sites stayed ${states.join(", ")}`);
});

test("with a held tick object, nextTick's literal stays monomorphic through the same collections", async () => {
  const states = await literalSiteStates("hold");
  assert.deepEqual(
    states.filter((state) => state !== "MONOMORPHIC"),
    [],
    `sites: ${states.join(", ")}`,
  );
});

test("the hold keeps a tick object made by nextTick, and lets it go on release", () => {
  const hold = holdTickObjectShape();
  const held = hold.held;
  assert.ok(held !== undefined, "no tick object held");
  assert.ok(
    Object.getOwnPropertySymbols(held).some((symbol) => symbol.description === "async_id_symbol"),
    "not a tick object",
  );
  assert.equal(typeof (held as { callback?: unknown }).callback, "function");
  hold.release();
  assert.equal(hold.held, undefined);
});
