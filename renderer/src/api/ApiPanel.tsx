import { memo, useState } from "react";
import { maskApiKey } from "../../../shared/core/text/maskApiKey.ts";
import { curlLines, KEY_PLACEHOLDER, type PanelKey } from "../live/panelKey.ts";

interface Props {
  readonly baseUrl: string;
  readonly panelKey: PanelKey;
  readonly chainId: number;
}

/**
 * The local API at a glance: its base URL, one of the user's API keys (masked on screen, copied whole) and a curl line
 * per endpoint to copy. Memoised: its props change only with the key or the chain, not with each live block.
 */
export const ApiPanel = memo(function ApiPanel({ baseUrl, panelKey, chainId }: Props) {
  const lines = curlLines(baseUrl, chainId, panelKey);
  return (
    <section className="api-panel" aria-labelledby="api-title" data-testid="api-panel">
      <h2 id="api-title">Local API</h2>
      <dl className="api-facts">
        <dt>Base URL</dt>
        <dd>
          <code data-testid="api-base-url">{baseUrl}</code>
          <CopyButton text={baseUrl} label="Copy the base URL" />
        </dd>
        <dt>API key</dt>
        <dd data-testid="api-key-row" data-state={panelKey.kind}>
          <KeyFacts panelKey={panelKey} />
        </dd>
      </dl>
      <ul className="curl-lines">
        {lines.map((line) => (
          <li key={line.name}>
            <code data-testid={`curl-${line.name}`}>{line.shown}</code>
            <CopyButton text={line.copied} label={`Copy the curl line for ${line.name}`} />
          </li>
        ))}
      </ul>
    </section>
  );
});

function KeyFacts({ panelKey }: { panelKey: PanelKey }) {
  switch (panelKey.kind) {
    case "key":
      return (
        <>
          <code data-testid="api-key">{maskApiKey(panelKey.apiKey)}</code>
          <CopyButton text={panelKey.apiKey} label="Copy the API key" />
          {panelKey.apiKeySecret === undefined ? null : <CopyButton text={panelKey.apiKeySecret} label="Copy the key's secret" caption="Copy secret" />}
          <span className="api-note">
            {panelKey.from === "address"
              ? "the API key this page was opened with"
              : `one of your API keys${panelKey.apiKeySecret === undefined ? "" : ", which requires its secret (in the commands, after the colon)"}`}
          </span>
        </>
      );
    case "none":
      return (
        <span className="api-note" data-testid="api-key-missing">
          No API key to show: the commands say <code>{KEY_PLACEHOLDER}</code>. Create a key in the desktop app&apos;s settings, or start the service with{" "}
          <code>--api-key KEY</code>.
        </span>
      );
    case "unavailable":
      return (
        <span className="api-note" data-testid="api-key-missing">
          Could not ask the service for an API key ({panelKey.message}): the commands say <code>{KEY_PLACEHOLDER}</code> until it answers.
        </span>
      );
    case "loading":
      return <span className="api-note">asking the service for an API key…</span>;
  }
}

export function CopyButton({ text, label, caption = "Copy" }: { text: string; label: string; caption?: string }) {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  const copy = () => {
    // The clipboard exists only in a secure context (127.0.0.1 and localhost are).
    (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject(new Error("no clipboard"))).then(
      () => setCopied("yes"),
      () => setCopied("failed"),
    );
    window.setTimeout(() => setCopied("no"), 1500);
  };
  return (
    <button type="button" className="small copy" onClick={copy} aria-label={label} title={label}>
      {copied === "yes" ? "Copied" : copied === "failed" ? "Copy failed" : caption}
    </button>
  );
}
