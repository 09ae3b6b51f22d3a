import { CopyButton } from "./api/ApiPanel.tsx";
import { endpointProblem } from "./live/chainState.ts";
import type { NetworkStatus } from "./live/dataClient.ts";

export const DEMO_COMMAND = "npm run serve -- --demo";

/**
 * The page while no chain answers (noChainAnswers): nothing to chart, so it says why, chain by chain from /networks,
 * and what to do: check the network or the RPC URLs, or try the demo, which needs no network. It goes away by itself
 * as soon as one chain has data.
 */
export function NoChainAnswers({ chains, desktop }: { chains: readonly NetworkStatus[]; desktop: boolean }) {
  return (
    <main className="no-chain-answers" role="status" data-testid="no-chain-answers">
      <h2>No chain answers</h2>
      <p>{chains.length === 1 ? "The chain gasfees follows has" : `None of the ${chains.length} chains gasfees follows has`} data: every RPC endpoint fails.</p>
      <ul className="no-chain-list">
        {chains.map((chain) => (
          <li key={chain.chainId} data-testid="no-chain-answers-chain" data-chain-id={chain.chainId}>
            <strong>{chain.name}</strong> <span className="no-chain-id">chain {chain.chainId}</span>
            {chain.endpoints.map((endpoint) => (
              <div key={endpoint.url} className="no-chain-endpoint" title={endpoint.lastError ?? ""}>
                {endpointProblem(endpoint)}
              </div>
            ))}
          </li>
        ))}
      </ul>
      <p>
        Check this computer&apos;s network connection, or the chains&apos; RPC URLs
        {desktop ? " in Settings." : <> (--chain, or &quot;chains&quot; in settings.json).</>}
      </p>
      {desktop ? null : (
        <p className="demo-suggestion" data-testid="demo-suggestion">
          To try gasfees without a network, stop this service and start the demo, a local chain replaying real mainnet fees:
          <span className="demo-command">
            <code>{DEMO_COMMAND}</code>
            <CopyButton text={DEMO_COMMAND} label="Copy the demo's command" />
          </span>
        </p>
      )}
      <p className="no-chain-retry">The service keeps trying each endpoint; this page shows the chains as soon as one answers.</p>
    </main>
  );
}
