import { useRef, type KeyboardEvent } from "react";
import { GLANCE_WORDS, glanceState } from "./chainState.ts";
import type { NetworkStatus } from "./dataClient.ts";

interface Props {
  readonly networks: readonly NetworkStatus[];
  readonly selected: number | undefined;
  /** The selected chain's status from its live stream, newer than the polled one. */
  readonly live: NetworkStatus | undefined;
  readonly onSelect: (chainId: number) => void;
}

/** Every configured chain with its state; Tab reaches it, the arrow keys, Home and End move between chains. */
export function ChainSwitcher({ networks, selected, live, onSelect }: Props) {
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = networks.length - 1;
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
    onSelect(networks[target]!.chainId);
  };
  return (
    <nav className="switcher" aria-label="Chains" data-testid="chain-switcher">
      {networks.map((polled, index) => {
        const network = live?.chainId === polled.chainId ? live : polled;
        const state = glanceState(network);
        const current = network.chainId === selected;
        return (
          <button
            key={network.chainId}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            className={`chain-chip state-${state}${current ? " chain-chip-current" : ""}`}
            aria-current={current ? "page" : undefined}
            tabIndex={current || (selected === undefined && index === 0) ? 0 : -1}
            data-testid={`chain-${network.chainId}`}
            data-state={state}
            title={`${network.name} (chain ${network.chainId}): ${GLANCE_WORDS[state]}`}
            onClick={() => onSelect(network.chainId)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            <span className="dot" aria-hidden="true" />
            <span className="chain-chip-name">{network.name}</span>
            <span className="chain-chip-state">{GLANCE_WORDS[state]}</span>
          </button>
        );
      })}
    </nav>
  );
}
