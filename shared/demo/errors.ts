/** Errors of the local EVM node harness; each message says what to try next. */

export class EvmNodeStartError extends Error {
  override name = "EvmNodeStartError";
  constructor(reason: string) {
    super(
      `The local EVM node (Hardhat) did not start: ${reason}. Check that hardhat 2.x is installed (npm ci) and that hardhat.config.cjs is at the repository root.`,
    );
  }
}

export class EvmNodeStoppedError extends Error {
  override name = "EvmNodeStoppedError";
  constructor(action: string) {
    super(`Cannot ${action}: the local EVM node has stopped. Start a new one with startEvmNode().`);
  }
}

export class EvmNodeRpcError extends Error {
  override name = "EvmNodeRpcError";
  readonly code: number | undefined;
  constructor(method: string, message: string, code?: number) {
    super(`The local EVM node refused ${method}: ${message}${code === undefined ? "" : ` (code ${code})`}. Check the method name and its parameters.`);
    this.code = code;
  }
}
