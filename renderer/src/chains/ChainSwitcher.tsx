import { memo, useCallback, useLayoutEffect, useRef, type KeyboardEvent } from "react";
import { shortGwei } from "../../../shared/core/text/shortGwei.ts";
import { shownCostOf } from "../../../shared/core/text/shownCost.ts";
import type { NetworkStatus } from "../../../shared/wire/networkStatus.ts";
import { GLANCE_WORDS, glanceState } from "../live/chainState.ts";
import { costsStateKey, type CostsStore } from "../costs/costsStore.ts";
import { moneyText } from "../../../shared/core/text/money.ts";
import { useCosts } from "../costs/useCosts.ts";
import type { ChainLive } from "../live/dashboardFeed.ts";
import { Sparkline } from "./Sparkline.tsx";
import "./chainTiles.css";
import type { StatsRequest } from "../live/statsRequest.ts";
import type { StatsStore } from "../history/statsStore.ts";
import { useBaseFeeStats } from "../history/useBaseFeeStats.ts";
import { versusMedian } from "./versusMedian.ts";
import { heldByAnswer, lastSpanWords, statsMedianWords } from "../text/windowWords.ts";
import { disputeWords } from "../text/disputeWords.ts";

interface Props {
  readonly chains: readonly ChainLive[];
  readonly selected: number | undefined;
  /** False while the service does not answer: then no chain's state is known to be current. */
  readonly serviceAnswering: boolean;
  readonly stats: StatsStore;
  readonly costs: CostsStore;
  /** The action whose cost (medium tier) each tile shows instead of the base fee; undefined: the base fee. */
  readonly shownAction: string | undefined;
  readonly onSelect: (chainId: number) => void;
}

/**
 * Every configured chain at a glance, one tile each: its state, its current base fee against its median over the
 * statistics window (the chain's 50th percentile card, the same number over the same blocks, while the history is
 * shorter over what is held), and a sparkline of the last 24 hours; a click (or Tab, then the arrow keys, Home and
 * End) switches to it.
 */
export const ChainSwitcher = memo(function ChainSwitcher({ chains, selected, serviceAnswering, stats, costs, shownAction, onSelect }: Props) {
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  // The newest list, for the handlers below, which stay the same functions so that a tile re-renders only when its
  // own chain changes.
  const newestChains = useRef(chains);
  useLayoutEffect(() => {
    newestChains.current = chains;
  });
  const placeButton = useCallback((index: number, element: HTMLButtonElement | null) => {
    buttons.current[index] = element;
  }, []);
  const onKeyDown = useCallback(
    (event: KeyboardEvent, index: number) => {
      const list = newestChains.current;
      const last = list.length - 1;
      const target =
        event.key === "ArrowRight" || event.key === "ArrowDown"
          ? index === last
            ? 0
            : index + 1
          : event.key === "ArrowLeft" || event.key === "ArrowUp"
            ? index === 0
              ? last
              : index - 1
            : event.key === "Home"
              ? 0
              : event.key === "End"
                ? last
                : undefined;
      if (target === undefined) return;
      event.preventDefault();
      buttons.current[target]?.focus();
      onSelect(list[target]!.status.chainId);
    },
    [onSelect],
  );
  return (
    <nav className="switcher" aria-label="Chains" data-testid="chain-switcher">
      {chains.map(({ status }, index) => (
        <ChainTile
          key={status.chainId}
          status={status}
          current={status.chainId === selected}
          focusable={status.chainId === selected || (selected === undefined && index === 0)}
          serviceAnswering={serviceAnswering}
          stats={stats}
          costs={costs}
          shownAction={shownAction}
          index={index}
          placeButton={placeButton}
          onSelect={onSelect}
          onKeyDown={(event) => onKeyDown(event, index)}
        />
      ))}
    </nav>
  );
});

/** The last 24 hours in 48 half-hour buckets for the sparkline; asked again every 5 minutes. */
const DAY_S = 86_400;
const DAY_SPARKLINE: StatsRequest = { kind: "window", window: "24h", buckets: 48 };
const REFRESH_MS = 300_000;
/** A tile showing a cost asks for it again with new blocks, at most this often. */
const COSTS_EVERY_MS = 15_000;

interface TileProps {
  readonly status: NetworkStatus;
  readonly current: boolean;
  readonly focusable: boolean;
  readonly serviceAnswering: boolean;
  readonly stats: StatsStore;
  readonly costs: CostsStore;
  readonly shownAction: string | undefined;
  /** The tile's place in the list, for the keyboard. */
  readonly index: number;
  readonly placeButton: (index: number, element: HTMLButtonElement | null) => void;
  readonly onSelect: (chainId: number) => void;
  readonly onKeyDown: (event: KeyboardEvent, index: number) => void;
}

const ChainTile = memo(function ChainTile({
  status,
  current,
  focusable,
  serviceAnswering,
  stats,
  costs,
  shownAction,
  index,
  placeButton,
  onSelect,
  onKeyDown,
}: TileProps) {
  const state = glanceState(status, serviceAnswering);
  const ask = serviceAnswering && status.history.blocks > 0;
  // The cards' p50, not a median of its own: the tile and the card beside it say one number over one window.
  const median = status.baseFeePercentile ?? undefined;
  const sparklineAnswer = useBaseFeeStats(stats, status.chainId, DAY_SPARKLINE, REFRESH_MS, ask);
  const sparkline = sparklineAnswer.buckets;
  const fee = status.currentBaseFee;
  const costsEntry = useCosts(costs, status.chainId, costsStateKey(status), COSTS_EVERY_MS, shownAction !== undefined && serviceAnswering && fee !== null);
  const cost = shownAction === undefined ? undefined : shownCostOf(costsEntry.costs, shownAction);
  const versus = fee === null || median === undefined ? undefined : versusMedian(fee, median);
  const why = serviceAnswering ? GLANCE_WORDS[state] : "unknown: the service is not answering";
  const feeWords = fee === null ? "" : `; base fee ${fee} Gwei`;
  // Named by the window it is computed over: "vs 24 h median" never stands beside a median of less than a day.
  const medianOf = statsMedianWords(status.statsWindow, status.history);
  const medianWords = median === undefined ? "" : `, ${medianOf.long} ${median} Gwei`;
  // A dispute is said while the service answers: the last word of a service that is silent is not current.
  const dispute = serviceAnswering ? disputeWords(status) : undefined;
  const disputeTitle = dispute === undefined ? "" : `\n${dispute.label}: ${dispute.title}`;
  return (
    <button
      ref={(element) => placeButton(index, element)}
      type="button"
      className={`chain-chip state-${state}${current ? " chain-chip-current" : ""}`}
      aria-current={current ? "page" : undefined}
      tabIndex={focusable ? 0 : -1}
      data-testid={`chain-${status.chainId}`}
      data-state={state}
      data-disputed={dispute === undefined ? undefined : "true"}
      title={`${status.name} (chain ${status.chainId}): ${why}${feeWords}${medianWords}${disputeTitle}`}
      onClick={() => onSelect(status.chainId)}
      onKeyDown={(event) => onKeyDown(event, index)}
    >
      <span className="chip-top">
        <span className="dot" aria-hidden="true" />
        <span className="chain-chip-name">{status.name}</span>
        <span className="chain-chip-state">{GLANCE_WORDS[state]}</span>
        {dispute === undefined ? null : (
          <span className="chain-chip-disputed" data-testid={`chain-${status.chainId}-disputed`} title={dispute.title}>
            {dispute.label}
          </span>
        )}
      </span>
      {fee === null ? null : (
        <span className="chip-bottom">
          {cost?.kind === "money" ? (
            <span
              className="chip-fee chip-cost"
              data-testid={`chain-${status.chainId}-cost`}
              data-value={cost.fiat}
              title={`${cost.name} now (medium tier): ${moneyText(cost.fiat, cost.currency)}; base fee ${fee} Gwei`}
            >
              {moneyText(cost.fiat, cost.currency)}
              <span className="unit"> {cost.name.toLowerCase()}</span>
            </span>
          ) : (
            <span className="chip-fee" data-testid={`chain-${status.chainId}-fee`} data-value={fee}>
              {shortGwei(fee)}
              <span className="unit"> Gwei</span>
              {cost?.kind === "none" ? (
                <span className="chip-no-cost" data-testid={`chain-${status.chainId}-no-cost`} title={`${cost.why}: the base fee is shown instead`}>
                  {" "}
                  (no price)
                </span>
              ) : null}
            </span>
          )}
          {versus === undefined ? null : (
            <span
              className={`chip-versus versus-${versus.direction}`}
              data-testid={`chain-${status.chainId}-versus`}
              data-median={median}
              title={`The current base fee against ${medianOf.long}: ${median} Gwei`}
            >
              {versus.words} <VersusOf words={medianOf.short} />
            </span>
          )}
        </span>
      )}
      {sparkline === undefined ? null : (
        <Sparkline
          buckets={sparkline}
          label={`${status.name}: median base fee over ${lastSpanWords(DAY_S, heldByAnswer(sparklineAnswer.heldFromSeconds, status.history))}`}
        />
      )}
    </button>
  );
});

/** "vs 24 h median", or "vs 7.2 h median" while less is held; narrow screens drop "median" ("vs 24 h", "vs 7.2 h"). */
function VersusOf({ words }: { words: string }) {
  return (
    <span className="chip-versus-of" data-testid="versus-of">
      vs {words.replace(/ median$/, "")}
      <span className="chip-versus-median"> median</span>
    </span>
  );
}
