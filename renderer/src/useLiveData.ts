import { useEffect, useState } from "react";
import { applyBlocks, type FeePoint } from "./chainData.ts";
import { ApiCallError, type DataClient, type NetworkStatus, type StreamState } from "./dataClient.ts";

const NETWORKS_POLL_MS = 2000;

export interface NetworksState {
  readonly networks: readonly NetworkStatus[] | undefined;
  /** The last failure of `GET /networks`; cleared by the next success. */
  readonly error: ApiCallError | Error | undefined;
}

/** Every chain's state for the switcher, polled (the selected chain's own state comes live from its stream). */
export function useNetworks(client: DataClient): NetworksState {
  const [state, setState] = useState<NetworksState>({ networks: undefined, error: undefined });
  useEffect(() => {
    const abort = new AbortController();
    let timer: number | undefined;
    const poll = async () => {
      try {
        const networks = await client.networks(abort.signal);
        setState({ networks, error: undefined });
      } catch (error) {
        if (abort.signal.aborted) return;
        setState((previous) => ({ networks: previous.networks, error: error as Error }));
      }
      if (!abort.signal.aborted) timer = window.setTimeout(poll, NETWORKS_POLL_MS);
    };
    void poll();
    return () => {
      abort.abort();
      window.clearTimeout(timer);
    };
  }, [client]);
  return state;
}

export interface ChainFeedState {
  readonly chainId: number;
  readonly status: NetworkStatus | undefined;
  readonly points: readonly FeePoint[];
  /** performance.now() when the status arrived, to age `status.dataAgeMs` locally. */
  readonly receivedAt: number;
  readonly stream: StreamState;
}

/** One chain, live: its full state from the first event, then patched by each one. */
export function useChainFeed(client: DataClient, chainId: number | undefined): ChainFeedState | undefined {
  const [state, setState] = useState<ChainFeedState | undefined>(undefined);
  useEffect(() => {
    if (chainId === undefined) return;
    setState({ chainId, status: undefined, points: [], receivedAt: performance.now(), stream: "connecting" });
    return client.watchNetwork(
      chainId,
      (event) =>
        setState((previous) => {
          const base = previous?.chainId === chainId ? previous : undefined;
          const points = event.blocks === null ? (base?.points ?? []) : applyBlocks(base?.points ?? [], event.blocks);
          return { chainId, status: event.status, points, receivedAt: performance.now(), stream: "live" };
        }),
      (stream) => setState((previous) => (previous?.chainId === chainId && previous.stream !== stream ? { ...previous, stream } : previous)),
    );
  }, [client, chainId]);
  return state?.chainId === chainId ? state : undefined;
}
