// MetaMask's own gas fee code (@metamask/gas-fee-controller 25) pointed at the local API, as a wallet would be:
// its fetchGasEstimates, its fee-market path (determineGasFeeCalculations) and the GasFeeController itself must
// accept our suggestedGasFees as a fee-market estimate, with our values, and never fall back to eth_gasPrice.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  type EstimatedGasFeeTimeBounds,
  type EthGasPriceEstimate,
  GasFeeController,
  type GasFeeEstimates,
  type GasFeeState,
  type LegacyGasPriceEstimate,
} from "@metamask/gas-fee-controller";
import { CHAIN_ID, KEY, startTippedChain, type TippedChain } from "../support/tippedChain.ts";

type ControllerOptions = ConstructorParameters<typeof GasFeeController>[0];

/** The helpers of gas-util.cjs this test calls, as its .d.cts declares them. */
interface GasUtil {
  readonly fetchGasEstimates: (url: string, clientId?: string) => Promise<GasFeeEstimates>;
  readonly calculateTimeEstimate: (maxPriorityFeePerGas: string, maxFeePerGas: string, gasFeeEstimates: GasFeeEstimates) => EstimatedGasFeeTimeBounds;
}

/** determineGasFeeCalculations.cjs's default export, as its .d.cts declares it. */
type DetermineGasFeeCalculations = (args: {
  isEIP1559Compatible: boolean;
  isLegacyGasAPICompatible: boolean;
  fetchGasEstimates: GasUtil["fetchGasEstimates"];
  fetchGasEstimatesUrl: string;
  fetchLegacyGasPriceEstimates: (url: string, clientId?: string) => Promise<LegacyGasPriceEstimate>;
  fetchLegacyGasPriceEstimatesUrl: string;
  fetchEthGasPriceEstimate: (ethQuery: unknown) => Promise<EthGasPriceEstimate>;
  calculateTimeEstimate: GasUtil["calculateTimeEstimate"];
  clientId: string | undefined;
  ethQuery: unknown;
  nonRPCGasFeeApisDisabled?: boolean;
}) => Promise<GasFeeState>;

// The package exports only the controller; its helpers are loaded from its own files, the code the controller runs.
const require = createRequire(import.meta.url);
const dist = dirname(require.resolve("@metamask/gas-fee-controller"));
const gasUtil = require(join(dist, "gas-util.cjs")) as GasUtil;
const determineGasFeeCalculations = (require(join(dist, "determineGasFeeCalculations.cjs")) as { default: DetermineGasFeeCalculations }).default;
// The messenger the controller's base class was built against (base-controller's own dependency).
const { Messenger } = createRequire(require.resolve("@metamask/base-controller"))("@metamask/messenger") as {
  Messenger: new (options: { namespace: string }) => ControllerOptions["messenger"];
};

/** A JSON-RPC request as the controller's provider receives it. */
interface ProviderPayload {
  readonly id: number;
  readonly method: string;
  readonly params?: readonly unknown[];
}

describe("MetaMask's gas fee controller against the local API", () => {
  let chain: TippedChain;
  let ours: GasFeeEstimates;
  let template: string;
  let url: string;

  before(async () => {
    chain = await startTippedChain();
    template = `${chain.service.url}/v3/${KEY}/networks/<chain_id>/suggestedGasFees`;
    url = template.replace("<chain_id>", String(CHAIN_ID));
    const response = await fetch(url);
    assert.equal(response.status, 200);
    ours = (await response.json()) as GasFeeEstimates;
  });
  after(async () => {
    await chain?.stop();
  });

  test("fetchGasEstimates accepts the answer and returns our values unchanged", async () => {
    const estimates = await gasUtil.fetchGasEstimates(url, "gasfees-test");
    // MetaMask normalises the five fee strings to whole wei and keeps the rest: exact Gwei strings survive as they are.
    assert.deepEqual(estimates, ours);
    assert.equal(estimates.medium.suggestedMaxPriorityFeePerGas, "1.500000001");
  });

  test("its fee-market path: determineGasFeeCalculations answers fee-market with our estimates, no fallback", async () => {
    const { result, fellBack } = await feeMarketCalculation(url);
    assert.equal(fellBack, 0);
    assert.equal(result.gasEstimateType, "fee-market");
    assert.deepEqual(result.gasFeeEstimates, ours);
    // The medium tip is below the high one, so MetaMask places it in the medium band.
    assert.deepEqual(result.estimatedGasFeeTimeBounds, { lowerTimeBound: ours.medium.minWaitTimeEstimate, upperTimeBound: ours.medium.maxWaitTimeEstimate });
  });

  test("the GasFeeController itself, configured with our URL as its EIP-1559 endpoint, stores our estimates", async () => {
    const providerCalls: string[] = [];
    // Reached only by the eth_gasPrice fallback: recorded, so that a fallback fails the test.
    const provider = {
      sendAsync(payload: ProviderPayload, callback: (error: unknown, response?: { id: number; jsonrpc: "2.0"; result: unknown }) => void) {
        providerCalls.push(payload.method);
        chain.node.request(payload.method, payload.params ?? []).then(
          (result) => callback(null, { id: payload.id, jsonrpc: "2.0", result }),
          (error: unknown) => callback(error),
        );
      },
    };
    const controller = new GasFeeController({
      messenger: new Messenger({ namespace: "GasFeeController" }),
      // The one method of a provider the controller calls (and only on the fallback path this test forbids).
      getProvider: () => provider as unknown as ReturnType<ControllerOptions["getProvider"]>,
      getChainId: () => `0x${CHAIN_ID.toString(16)}`,
      onNetworkDidChange: () => {},
      getCurrentNetworkEIP1559Compatibility: () => Promise.resolve(true),
      getCurrentNetworkLegacyGasAPICompatibility: () => false,
      EIP1559APIEndpoint: template,
      clientId: "gasfees-test",
    });
    try {
      const calculations = await controller.fetchGasFeeEstimates();
      assert.deepEqual(providerCalls, []);
      assert.equal(calculations.gasEstimateType, "fee-market");
      assert.equal(controller.state.gasEstimateType, "fee-market");
      assert.deepEqual(controller.state.gasFeeEstimates, ours);
      assert.deepEqual(controller.state.gasFeeEstimatesByChainId?.[`0x${CHAIN_ID.toString(16)}`]?.gasFeeEstimates, ours);
      // Its time estimate for our high level: exactly the high level's waits.
      assert.deepEqual(controller.getTimeEstimate(ours.high.suggestedMaxPriorityFeePerGas, ours.high.suggestedMaxFeePerGas), {
        lowerTimeBound: ours.high.minWaitTimeEstimate,
        upperTimeBound: ours.high.maxWaitTimeEstimate,
      });
    } finally {
      controller.destroy();
    }
  });

  test("a wrong key is not taken for an estimate: the controller falls back (the check above can fail)", async () => {
    const { result, fellBack } = await feeMarketCalculation(url.replace(KEY, "ffffffffffffffffffffffffffffffff"));
    assert.equal(fellBack, 1);
    assert.equal(result.gasEstimateType, "eth_gasPrice");
  });
});

/** MetaMask's own choice between its fee-market API and the eth_gasPrice fallback, with the fallback counted. */
async function feeMarketCalculation(estimatesUrl: string) {
  let fellBack = 0;
  const result = await determineGasFeeCalculations({
    isEIP1559Compatible: true,
    isLegacyGasAPICompatible: false,
    fetchGasEstimates: gasUtil.fetchGasEstimates,
    fetchGasEstimatesUrl: estimatesUrl,
    fetchLegacyGasPriceEstimates: () => Promise.reject(new Error("not this path")),
    fetchLegacyGasPriceEstimatesUrl: "http://127.0.0.1:1/unused",
    fetchEthGasPriceEstimate: () => {
      fellBack++;
      return Promise.resolve({ gasPrice: "1" });
    },
    calculateTimeEstimate: gasUtil.calculateTimeEstimate,
    clientId: "gasfees-test",
    ethQuery: undefined,
    nonRPCGasFeeApisDisabled: false,
  });
  return { result, fellBack };
}
