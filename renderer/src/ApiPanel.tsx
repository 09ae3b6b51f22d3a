import { memo, useState } from "react";
import { maskKey } from "./format.ts";

interface Props {
  readonly baseUrl: string;
  readonly token: string;
  readonly chainId: number;
}

/**
 * The local API at a glance: its base URL, the key (masked), and a curl line per endpoint to copy. Memoised: its
 * props change only with the key or the chain, not with each live block.
 */
export const ApiPanel = memo(function ApiPanel({ baseUrl, token, chainId }: Props) {
  const [shown, setShown] = useState(false);
  const key = shown ? token : maskKey(token);
  const lines = [
    { name: "busyThreshold", command: (k: string) => `curl -u "${k}:" ${baseUrl}/networks/${chainId}/busyThreshold` },
    { name: "baseFeePercentile", command: (k: string) => `curl -u "${k}:" ${baseUrl}/networks/${chainId}/baseFeePercentile` },
    { name: "baseFeeHistory", command: (k: string) => `curl -u "${k}:" ${baseUrl}/networks/${chainId}/baseFeeHistory` },
    { name: "suggestedGasFees", command: (k: string) => `curl -u "${k}:" ${baseUrl}/networks/${chainId}/suggestedGasFees` },
    { name: "networks", command: (k: string) => `curl -u "${k}:" ${baseUrl}/networks` },
    { name: "events", command: (k: string) => `curl -N -u "${k}:" ${baseUrl}/networks/${chainId}/events` },
  ];
  return (
    <section className="api-panel" aria-labelledby="api-title" data-testid="api-panel">
      <h2 id="api-title">Local API</h2>
      <dl className="api-facts">
        <dt>Base URL</dt>
        <dd>
          <code data-testid="api-base-url">{baseUrl}</code>
          <CopyButton text={baseUrl} label="Copy the base URL" />
        </dd>
        <dt>Key</dt>
        <dd>
          <code data-testid="api-key">{key}</code>
          <button type="button" className="small" onClick={() => setShown(!shown)} aria-pressed={shown}>
            {shown ? "Hide" : "Show"}
          </button>
          <CopyButton text={token} label="Copy the key" />
          <span className="api-note">the key this page was opened with (a session token lasts until the service stops)</span>
        </dd>
      </dl>
      <ul className="curl-lines">
        {lines.map((line) => (
          <li key={line.name}>
            <code data-testid={`curl-${line.name}`}>{line.command(key)}</code>
            <CopyButton text={line.command(token)} label={`Copy the curl line for ${line.name}`} />
          </li>
        ))}
      </ul>
    </section>
  );
});

function CopyButton({ text, label }: { text: string; label: string }) {
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
      {copied === "yes" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
    </button>
  );
}
