import { memo, useRef, type KeyboardEvent } from "react";
import { GLANCE_WORDS, glanceState } from "./chainState.ts";
import type { ChainLive } from "./dashboardFeed.ts";

interface Props {
  readonly chains: readonly ChainLive[];
  readonly selected: number | undefined;
  /** False while the service does not answer: then no chain's state is known to be current. */
  readonly serviceAnswering: boolean;
  readonly onSelect: (chainId: number) => void;
}

/** Every configured chain with its state; Tab reaches it, the arrow keys, Home and End move between chains. */
export const ChainSwitcher = memo(function ChainSwitcher({ chains, selected, serviceAnswering, onSelect }: Props) {
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = chains.length - 1;
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
    onSelect(chains[target]!.status.chainId);
  };
  return (
    <nav className="switcher" aria-label="Chains" data-testid="chain-switcher">
      {chains.map(({ status }, index) => {
        const state = glanceState(status, serviceAnswering);
        const current = status.chainId === selected;
        const why = serviceAnswering ? GLANCE_WORDS[state] : "unknown: the service is not answering";
        return (
          <button
            key={status.chainId}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            className={`chain-chip state-${state}${current ? " chain-chip-current" : ""}`}
            aria-current={current ? "page" : undefined}
            tabIndex={current || (selected === undefined && index === 0) ? 0 : -1}
            data-testid={`chain-${status.chainId}`}
            data-state={state}
            title={`${status.name} (chain ${status.chainId}): ${why}`}
            onClick={() => onSelect(status.chainId)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            <span className="dot" aria-hidden="true" />
            <span className="chain-chip-name">{status.name}</span>
            <span className="chain-chip-state">{GLANCE_WORDS[state]}</span>
          </button>
        );
      })}
    </nav>
  );
});
