// A real local EVM node (Hardhat) for the Electron end-to-end tests, in its own process (run with tsx): prints
// `{"url": ...}` on stdout once it answers, and stops when its stdin closes (the test process went away).
import { startEvmNode } from "../../../shared/demo/startEvmNode.ts";

const node = await startEvmNode({ chainId: 31337 });
process.stdout.write(`${JSON.stringify({ url: node.url })}\n`);
const stop = () => void node.stop().finally(() => process.exit(0));
process.stdin.on("end", stop).on("close", stop).resume();
process.once("SIGTERM", stop);
