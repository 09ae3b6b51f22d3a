import { HISTORY_BLOCKS } from "../../../shared/core/fees/historyLength.ts";
import { useState } from "react";
import type { ChainSettings, SettingsView } from "./settingsClient.ts";

interface ChainDraft {
  chainId: string;
  name: string;
  rpcUrls: string;
  statsWindowBlocks: string;
}

const draftOf = (chain: ChainSettings): ChainDraft => ({
  chainId: String(chain.chainId),
  name: chain.name ?? "",
  rpcUrls: chain.rpcUrls.join("\n"),
  statsWindowBlocks: String(chain.statsWindowBlocks),
});

/** Drafts to settings; numbers that do not parse are passed on as NaN so that the main process's validation names them. */
function chainsOf(drafts: readonly ChainDraft[]): ChainSettings[] {
  return drafts.map((draft) => ({
    chainId: Number(draft.chainId.trim()),
    ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
    rpcUrls: draft.rpcUrls
      .split(/[\s,]+/)
      .map((url) => url.trim())
      .filter((url) => url !== ""),
    statsWindowBlocks: Number(draft.statsWindowBlocks.trim() || String(HISTORY_BLOCKS)),
  }));
}

/** The page gives it a `key` made of the stored chains, so that the drafts start again from them after each change. */
export function ChainsSection({ view, onSave }: { view: SettingsView; onSave: (chains: ChainSettings[] | null) => Promise<boolean> }) {
  const usingDefaults = view.settings.chains === undefined;
  const saved = view.settings.chains ?? view.defaultChains;
  const [drafts, setDrafts] = useState<ChainDraft[]>(() => saved.map(draftOf));
  const dirty = JSON.stringify(chainsOf(drafts)) !== JSON.stringify(chainsOf(saved.map(draftOf)));

  const change = (index: number, field: keyof ChainDraft, value: string) =>
    setDrafts((current) => current.map((draft, at) => (at === index ? { ...draft, [field]: value } : draft)));

  return (
    <section className="settings-section" data-testid="settings-chains">
      <h3>Chains</h3>
      <p className="settings-hint">
        {usingDefaults
          ? "Following the default chains through their public RPC endpoints. Change any of them to keep your own list."
          : "Your own list of chains. Each chain's RPC URLs are tried in order (http(s) polls, ws(s) pushes new blocks)."}{" "}
        The statistics window ({HISTORY_BLOCKS} to 50,000 blocks) is what the percentiles are computed over; the history stays {HISTORY_BLOCKS} blocks.
      </p>
      {drafts.map((draft, index) => (
        <fieldset className="settings-chain" key={index} data-testid="chain-row">
          <label>
            Chain id
            <input inputMode="numeric" value={draft.chainId} onChange={(event) => change(index, "chainId", event.target.value)} />
          </label>
          <label>
            Name
            <input value={draft.name} placeholder="(known chains are named for you)" onChange={(event) => change(index, "name", event.target.value)} />
          </label>
          <label className="settings-wide">
            RPC URLs, one per line
            <textarea
              rows={Math.max(2, draft.rpcUrls.split("\n").length)}
              spellCheck={false}
              value={draft.rpcUrls}
              onChange={(event) => change(index, "rpcUrls", event.target.value)}
            />
          </label>
          <label>
            Statistics window (blocks)
            <input inputMode="numeric" value={draft.statsWindowBlocks} onChange={(event) => change(index, "statsWindowBlocks", event.target.value)} />
          </label>
          <button type="button" className="settings-danger" onClick={() => setDrafts((current) => current.filter((_, at) => at !== index))}>
            Remove
          </button>
        </fieldset>
      ))}
      <div className="settings-actions">
        <button
          type="button"
          onClick={() => setDrafts((current) => [...current, { chainId: "", name: "", rpcUrls: "", statsWindowBlocks: String(HISTORY_BLOCKS) }])}
        >
          Add a chain
        </button>
        <button type="button" className="settings-primary" disabled={!dirty} onClick={() => void onSave(chainsOf(drafts))} data-testid="chains-save">
          Save chains
        </button>
        {!usingDefaults && (
          <button type="button" onClick={() => void onSave(null)}>
            Back to the default chains
          </button>
        )}
      </div>
    </section>
  );
}
