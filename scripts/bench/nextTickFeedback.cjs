// A diagnostic preload for the served-load bench's slow runs (docs/benchmarks.md, "A slow state found"): on SIGUSR2,
// prints process.nextTick with its feedback vector (V8's %DebugPrint, to stdout). The five
// `DefineKeyedOwnPropertyInLiteral` slots are the sites of its tick object literal (three symbol keys, `callback`,
// `args`): MONOMORPHIC in a process that answers at its usual cost, MEGAMORPHIC from the second on in one that runs at
// 1.3 to 1.7 times it (the cause, and the server's fix: shared/http/tickObjectShape.ts). Runs only with V8's natives
// syntax:
//   node --allow-natives-syntax -r ./scripts/bench/nextTickFeedback.cjs scripts/serve.mjs --demo ... > out.txt
//   kill -USR2 <pid>; grep -A1 'DefineKeyedOwnPropertyInLiteral' out.txt
"use strict";

// Compiled at run time, so that this file parses (and lints) without the natives syntax.
const debugPrint = new Function("value", "%DebugPrint(value)");

process.on("SIGUSR2", () => debugPrint(process.nextTick));
