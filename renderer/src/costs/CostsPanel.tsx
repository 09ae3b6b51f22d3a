import { useEffect, useState } from "react";
import { shortGwei } from "../../../shared/core/text/shortGwei.ts";
import type { ActionCost, Costs } from "../../../shared/wire/costs.ts";
import {
  blobRowWords,
  chargesL1Fee,
  chargesOperatorFee,
  gasText,
  heldPriceWords,
  l1FeeText,
  l1FeeTitle,
  noPriceWords,
  operatorFeeText,
  priceAgeText,
  priceText,
  shortAddress,
  type Tier,
  TIERS,
  tierCostText,
  tierSpreadWords,
  tierTipsGwei,
} from "./costWords.ts";
import type { CostsEntry } from "./costsStore.ts";
import { blockNumber, clockTime } from "../text/format.ts";
import "./costs.css";

const TIER_WORDS: Record<Tier, string> = { low: "Low", medium: "Medium", high: "High" };

interface Props {
  readonly entry: CostsEntry;
  readonly chainName: string;
  /** The service is not answering: what is held is its last answer, not a current one. */
  readonly offline: boolean;
}

/**
 * "What it costs now": each action at the low, medium and high tiers in the currency, the L1 data fee apart on
 * rollups, and the price it is computed at with its age and feed. Without a usable price it says why, plainly, and
 * shows the costs in Gwei of the gas token: a price is never shown as current when it is not.
 */
export function CostsPanel({ entry, chainName, offline }: Props) {
  const { costs, error, fetchedAt } = entry;
  return (
    <section className="costs-panel" aria-labelledby="costs-title" data-testid="costs-panel">
      <div className="costs-head">
        <h3 id="costs-title">What it costs now</h3>
        {costs ? (
          <span className="costs-sub" data-testid="costs-basis" data-block={costs.basis.block}>
            at the block after {blockNumber(costs.basis.block)}, base fee{" "}
            <span title={`${costs.basis.baseFee} Gwei`}>{shortGwei(costs.basis.baseFee)} Gwei</span>
          </span>
        ) : null}
      </div>
      {costs === undefined ? (
        <p className="costs-none" data-testid="costs-none">
          {error === undefined ? `Asking the service what actions cost on ${chainName}…` : `The costs are not available: ${error}`}
        </p>
      ) : (
        <>
          <PriceLine costs={costs} />
          {offline || error !== undefined ? (
            <p className="panel-note" role="status" data-testid="costs-stale">
              {offline ? "The service is not answering" : `The costs could not be refreshed (${error})`}: these are the costs of{" "}
              {fetchedAt === undefined ? "earlier" : clockTime(fetchedAt)}, not current ones.
            </p>
          ) : null}
          <CostsTable costs={costs} />
        </>
      )}
    </section>
  );
}

/** The price the costs are computed at (token, value, round age, feed), or why there is none. */
function PriceLine({ costs }: { costs: Costs }) {
  const now = useNowMs();
  const noPrice = noPriceWords(costs);
  if (costs.price === null) {
    return (
      <p className="panel-note" role="note" data-testid="costs-price" data-state="none">
        {noPrice}
      </p>
    );
  }
  const { price } = costs;
  const held = heldPriceWords(costs);
  return (
    <p
      className="costs-price"
      data-testid="costs-price"
      data-state={held === undefined ? "current" : "held"}
      data-value={price.value}
      data-updated-at={price.updatedAt}
    >
      <strong>{priceText(price, costs.currency)}</strong>
      <span className="costs-price-detail">
        {" "}
        · {priceAgeText(price, now)} · Chainlink feed{" "}
        <span title={`${price.feed} on chain ${price.feedChainId}`} className="costs-feed">
          {shortAddress(price.feed)}
        </span>{" "}
        on chain {price.feedChainId}
      </span>
      {held === undefined ? null : (
        <span className="costs-price-held" role="note" data-testid="costs-price-held">
          {" "}
          {held}
        </span>
      )}
    </p>
  );
}

function CostsTable({ costs }: { costs: Costs }) {
  const rollup = chargesL1Fee(costs);
  const tips = tierTipsGwei(costs);
  const spread = tierSpreadWords(costs);
  return (
    <>
      <table className="costs-table" data-testid="costs-table" data-currency={costs.price === null ? "gwei" : costs.currency}>
        <thead>
          <tr>
            <th scope="col">Action</th>
            {TIERS.map((tier) => (
              <th scope="col" key={tier} className="costs-num">
                {TIER_WORDS[tier]}
                {tips === undefined ? null : (
                  <span className="costs-tip" data-testid={`costs-tip-${tier}`} data-value={tips[tier]} title={`The ${tier} tier's tip: ${tips[tier]} Gwei`}>
                    tip {shortGwei(tips[tier])} Gwei
                  </span>
                )}
              </th>
            ))}
            {rollup ? (
              <th scope="col" className="costs-num" title="The rollup's L1 data fee for a transaction of this size: included in each tier">
                of which L1 fee
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {costs.actions.map((action) => (
            <ActionRow key={action.id} action={action} costs={costs} rollup={rollup} />
          ))}
          <BlobRow costs={costs} rollup={rollup} />
        </tbody>
      </table>
      {spread === undefined ? null : (
        <p className="costs-note costs-tier-spread" data-testid="costs-tier-spread">
          {spread}
        </p>
      )}
      <p className="costs-note">
        Each tier: gas × (next base fee + the tier&apos;s tip of suggestedGasFees)
        {rollup ? " + the L1 data fee of a transaction of the action's size (the rollup's charge for posting it to Ethereum)" : ""}
        {chargesOperatorFee(costs) ? " + the operator fee the chain sets for the action's gas (OP stack: its value is in the L1 column's tooltip)" : ""}
        {costs.price === null ? "." : `, at the price above, rounded to the cent (to two digits below one cent).`}
        {costs.blob
          ? " One blob: 131,072 blob gas × the next block's blob base fee, one figure for every tier (what a rollup pays per blob it posts, beside its transaction's gas)."
          : ""}
        {costs.l1FeeProblem ? (
          <span data-testid="l1-fee-problem"> The L1 data fee could not be read ({costs.l1FeeProblem}): the tiers hold the L2 part only.</span>
        ) : null}
      </p>
    </>
  );
}

function ActionRow({ action, costs, rollup }: { action: ActionCost; costs: Costs; rollup: boolean }) {
  return (
    <tr data-testid={`cost-${action.id}`}>
      <th scope="row">
        {action.name}
        <span className="costs-gas"> {gasText(action.gas)}</span>
      </th>
      {TIERS.map((tier) => (
        <td
          key={tier}
          className="costs-num"
          data-testid={`cost-${action.id}-${tier}`}
          data-wei={action[tier].wei}
          data-fiat={action[tier].fiat ?? ""}
          title={`${action[tier].wei} wei`}
        >
          {tierCostText(action[tier], costs.currency)}
        </td>
      ))}
      {rollup ? (
        <td
          className="costs-num costs-l1"
          data-testid={`cost-${action.id}-l1`}
          data-wei={action.l1FeeWei ?? ""}
          data-operator-fee-wei={action.operatorFeeWei ?? ""}
          title={l1FeeTitle(action)}
        >
          {l1FeeText(action, costs.price, costs.currency)}
          {operatorFeeText(action, costs.price, costs.currency) === undefined ? null : (
            <span className="costs-operator-fee" data-testid={`cost-${action.id}-operator-fee`}>
              {" "}
              + operator {operatorFeeText(action, costs.price, costs.currency)}
            </span>
          )}
        </td>
      ) : null}
    </tr>
  );
}

/**
 * The cost of one blob at the next block's blob base fee, on chains with blob fees: one figure across the three tier
 * columns (a blob's fee has no tip, so no tiers), with the blob base fee it is computed from. No row without `blob`.
 */
function BlobRow({ costs, rollup }: { costs: Costs; rollup: boolean }) {
  const words = blobRowWords(costs);
  if (words === undefined || costs.blob === undefined) return null;
  const { blob, basis } = costs;
  return (
    <tr className="costs-blob" data-testid="cost-blob">
      <th scope="row">
        One blob
        <span className="costs-gas"> {words.blobGas}</span>
      </th>
      <td
        colSpan={TIERS.length}
        className="costs-num costs-blob-cost"
        data-testid="cost-blob-cost"
        data-wei={blob.wei}
        data-fiat={blob.fiat ?? ""}
        title={`${blob.wei} wei, the same at every tier`}
      >
        <span data-testid="cost-blob-figure">{words.cost}</span>
        {words.basis === undefined ? null : (
          <span className="costs-gas" data-testid="cost-blob-basis" title={`${basis.blobBaseFee} Gwei`}>
            {" "}
            at {words.basis}
          </span>
        )}
      </td>
      {rollup ? (
        <td className="costs-num costs-l1" title="A blob is paid on this chain: it has no L1 data fee">
          —
        </td>
      ) : null}
    </tr>
  );
}

/** The wall clock, again every 10 s (a price round's age is shown in minutes). */
function useNowMs(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 10_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}
