// Compiles Solidity offline with solc-js (the npm package): the price feed of the demo and the tests (Chainlink's
// MockV3Aggregator from @chainlink/contracts), and the tests' stand-in contracts. Imports resolve in node_modules.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** What a compiled contract is deployed from. */
export interface CompiledContract {
  readonly contractName: string;
  /** Where its source is, relative to the repository (node_modules/... for a package's). */
  readonly sourcePath: string;
  readonly compiler: string;
  readonly abi: readonly unknown[];
  readonly bytecode: `0x${string}`;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

/** Compiles `sourcePath` (relative to the repository) and returns `contractName` from it; throws with solc's errors. */
export function compileSolidity(sourcePath: string, contractName: string): CompiledContract {
  const solc = require("solc") as {
    compile(input: string, callbacks: { import(path: string): { contents: string } | { error: string } }): string;
    version(): string;
  };
  // Sources are named by their paths in the repository (never absolute ones), and no metadata hash is appended: the
  // same source compiles to the same bytes in any checkout.
  const input = {
    language: "Solidity",
    sources: { [sourcePath]: { content: readFileSync(join(ROOT, sourcePath), "utf8") } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: "paris",
      metadata: { bytecodeHash: "none" },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (path) => {
        try {
          return { contents: readFileSync(join(ROOT, path), "utf8") };
        } catch (error) {
          return { error: String(error) };
        }
      },
    }),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((error) => error.severity === "error");
  if (errors.length > 0) throw new Error(`solc could not compile ${sourcePath}:\n${errors.map((error) => error.formattedMessage).join("\n")}`);
  const compiled = output.contracts?.[sourcePath]?.[contractName];
  if (compiled === undefined) throw new Error(`${sourcePath} has no contract ${contractName}`);
  return { contractName, sourcePath, compiler: `solc-js ${solc.version()}`, abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` };
}

/**
 * Writes `compiled` as a TypeScript module exporting it as `exportName` (a module, not JSON: bundles carry it), headed
 * by a line that says which script made it from what and which test checks it; says on stdout what it wrote.
 */
export function writeArtifactModule(artifactPath: string, exportName: string, compiled: CompiledContract, header: string): void {
  writeFileSync(artifactPath, `// ${header}\nexport const ${exportName} = ${JSON.stringify(compiled, null, 2)} as const;\n`);
  process.stdout.write(`wrote ${artifactPath} (${compiled.compiler}, ${(compiled.bytecode.length - 2) / 2} bytes of creation code)\n`);
}

/** The demo's and the tests' price feed: Chainlink's MockV3Aggregator, as @chainlink/contracts ships its source. */
export const AGGREGATOR_SOURCE = "node_modules/@chainlink/contracts/src/v0.8/tests/MockV3Aggregator.sol";
/** A module (not a JSON file) so that the bundled serve command carries it: `npm run serve -- --demo` needs no compiler. */
export const AGGREGATOR_ARTIFACT = "shared/demo/contracts/mockV3Aggregator.ts";

/** The tests' NFT collection: OpenZeppelin's ERC721 with a public mint, measured for the default "nft-transfer" action. */
export const DEMO_COLLECTION_SOURCE = "test/support/contracts/DemoCollection.sol";
/** Tests only, so beside them (not in shared/: the demo does not use it). */
export const DEMO_COLLECTION_ARTIFACT = "test/support/contracts/demoCollection.ts";
