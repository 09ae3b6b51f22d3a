/** One JSON-RPC call to the node's provider. */
export interface RpcCall {
  readonly method: string;
  readonly params: readonly unknown[];
}

/** Runs calls in order and resolves with their results; rejects at the first that fails (the later ones do not run). */
export type CallRunner = (calls: readonly RpcCall[]) => Promise<unknown[]>;

/** Hardhat's provider, as the node process holds it. */
export interface RequestingProvider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** A call the node refused, with its JSON-RPC error. */
export class ProviderCallError extends Error {
  override name = "ProviderCallError";
  constructor(
    readonly method: string,
    message: string,
    readonly code?: number,
  ) {
    super(`${method}: ${message}`);
  }
}

/** EDR's provider (Hardhat's Rust core): one call, or a list of calls, as JSON text. */
interface EdrProvider {
  handleRequest(json: string): Promise<{ data: unknown }>;
}

/** The fields under which Hardhat 2's provider wrappers hold the provider they wrap, down to EDR's. */
const WRAPPED_PROVIDER_KEYS = ["_wrapped", "_wrappedProvider", "_provider", "provider"] as const;
const MAX_WRAPPERS = 12;

/** Each call awaited on its own through Hardhat's provider: 50 to 70 µs a call here, most of it the round trip into EDR. */
export function perCallRunner(provider: RequestingProvider): CallRunner {
  return async (calls) => {
    const results: unknown[] = [];
    for (const call of calls) {
      try {
        results.push(await provider.request({ method: call.method, params: [...call.params] }));
      } catch (error) {
        throw new ProviderCallError(call.method, error instanceof Error ? error.message : String(error), (error as { code?: number }).code);
      }
    }
    return results;
  };
}

/**
 * Runs each list of calls as one request to EDR's provider, which takes a list and runs it in order, stopping at the
 * first error: mining a block (two calls) then costs 9 to 12 µs rather than 105 to 145, so the demo's 14,650 blocks of
 * history are mined in 0.13 to 0.18 s rather than 1.5 to 2.1. EDR's provider sits behind Hardhat's wrappers, which is
 * not public API: this looks for it, checks with a list of two reads that it answers lists as expected, and resolves
 * with undefined when a Hardhat release changed either (the caller then uses perCallRunner).
 */
export async function edrBatchRunner(provider: RequestingProvider): Promise<CallRunner | undefined> {
  const edr = findEdrProvider(provider);
  if (edr === undefined) return undefined;
  const run: CallRunner = async (calls) => {
    const answer = parseListAnswer((await edr.handleRequest(JSON.stringify(calls.map((call) => ({ method: call.method, params: call.params }))))).data);
    if (answer === undefined) throw new ProviderCallError(calls[0]?.method ?? "(none)", "EDR answered a list of calls in a shape this does not know");
    // EDR stops at the failing call and says why, not which: its message names the problem (a timestamp, a fee).
    if ("error" in answer) throw new ProviderCallError(`a list of ${calls.length} calls`, answer.error.message, answer.error.code);
    if (answer.results.length !== calls.length)
      throw new ProviderCallError(calls[0]!.method, `EDR answered ${answer.results.length} results for ${calls.length} calls`);
    return answer.results;
  };
  try {
    const [chainId, blockNumber] = await run([
      { method: "eth_chainId", params: [] },
      { method: "eth_blockNumber", params: [] },
    ]);
    return typeof chainId === "string" && typeof blockNumber === "string" ? run : undefined;
  } catch {
    return undefined;
  }
}

function findEdrProvider(provider: unknown): EdrProvider | undefined {
  let current: unknown = provider;
  for (let depth = 0; depth < MAX_WRAPPERS && typeof current === "object" && current !== null; depth++) {
    if (typeof (current as Partial<EdrProvider>).handleRequest === "function") return current as EdrProvider;
    const holder = current as Record<string, unknown>;
    current = WRAPPED_PROVIDER_KEYS.map((key) => holder[key]).find((value) => typeof value === "object" && value !== null);
  }
  return undefined;
}

type ListAnswer = { readonly results: unknown[] } | { readonly error: { readonly message: string; readonly code?: number } };

/** `{"result":[...]}` when every call ran, `{"error":{...}}` when one failed. */
function parseListAnswer(data: unknown): ListAnswer | undefined {
  const answer: unknown = typeof data === "string" ? JSON.parse(data) : data;
  if (typeof answer !== "object" || answer === null) return undefined;
  const { result, error } = answer as { result?: unknown; error?: { message?: unknown; code?: unknown } };
  if (Array.isArray(result)) return { results: result };
  if (typeof error === "object" && error !== null && typeof error.message === "string") {
    return { error: { message: error.message, ...(typeof error.code === "number" ? { code: error.code } : {}) } };
  }
  return undefined;
}
