import { useState } from "react";
import { type ChainDraft, chainsOf, draftOf, EMPTY_CHAIN_DRAFT } from "./chainDrafts.ts";
import type { ChainSettings, SettingsView } from "./settingsClient.ts";

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
        The statistics window is what the percentiles and the busy threshold are computed over: a duration (24h by default, or 1h, 7d) or the newest blocks
        (7200 blocks). The history is kept for 7 days unless you say otherwise (at least the window).
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
            Statistics window
            <input value={draft.statsWindow} placeholder="24h" onChange={(event) => change(index, "statsWindow", event.target.value)} />
          </label>
          <label>
            History kept
            <input value={draft.historyHorizon} placeholder="7d" onChange={(event) => change(index, "historyHorizon", event.target.value)} />
          </label>
          <button type="button" className="settings-danger" onClick={() => setDrafts((current) => current.filter((_, at) => at !== index))}>
            Remove
          </button>
        </fieldset>
      ))}
      <div className="settings-actions">
        <button type="button" onClick={() => setDrafts((current) => [...current, { ...EMPTY_CHAIN_DRAFT }])}>
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
