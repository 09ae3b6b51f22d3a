// Regenerates shared/demo/contracts/MockV3Aggregator.json (the demo's price feed) from @chainlink/contracts' source:
//   node_modules/.bin/tsx scripts/compileAggregator.ts
// shared/demo/aggregatorArtifact.test.ts checks that the committed file is what this makes.
import { writeFileSync } from "node:fs";
import { AGGREGATOR_ARTIFACT, AGGREGATOR_SOURCE, compileSolidity } from "./compileSolidity.ts";

const compiled = compileSolidity(AGGREGATOR_SOURCE, "MockV3Aggregator");
writeFileSync(AGGREGATOR_ARTIFACT, `${JSON.stringify(compiled, null, 2)}\n`);
process.stdout.write(`wrote ${AGGREGATOR_ARTIFACT} (${compiled.compiler}, ${(compiled.bytecode.length - 2) / 2} bytes of creation code)\n`);
