import { type FormEvent, useState } from "react";
import type { CreatedApiKey, SettingsSectionProps } from "./settingsClient.ts";
import { failureMessage, unwrap } from "./settingsClient.ts";

const STORAGE_WORDS = { plaintext: "plain text", encrypted: "encrypted", unreadable: "cannot be decrypted here" } as const;

export function ApiKeysSection({ view, bridge, onView, onError }: SettingsSectionProps) {
  const [label, setLabel] = useState("");
  const [requireSecret, setRequireSecret] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | undefined>();
  const [copied, setCopied] = useState<string | undefined>();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    try {
      setCreated(unwrap(await bridge.createApiKey({ label, requireSecret })));
      setLabel("");
      onView(await bridge.get());
      onError(undefined);
    } catch (error) {
      onError(failureMessage(error));
    }
  };
  const copy = async (id: string) => {
    try {
      unwrap(await bridge.copyApiKey(id));
      setCopied(id);
      window.setTimeout(() => setCopied((current) => (current === id ? undefined : current)), 2000);
    } catch (error) {
      onError(failureMessage(error));
    }
  };
  const revoke = async (id: string, name: string) => {
    if (!window.confirm(`Revoke ${name}? Tools using it are refused at once.`)) return;
    try {
      onView(unwrap(await bridge.revokeApiKey(id)));
      if (created?.id === id) setCreated(undefined);
    } catch (error) {
      onError(failureMessage(error));
    }
  };

  return (
    <section className="settings-section" data-testid="settings-keys">
      <h3>API keys</h3>
      <p className={view.keyStorage.encrypted ? "settings-hint" : "settings-warning"} data-testid="key-storage">
        {view.keyStorage.description}
      </p>
      {view.apiKeys.length === 0 ? (
        <p className="settings-hint">No API keys yet: create one for each tool that calls the local API.</p>
      ) : (
        <table className="settings-keys">
          <thead>
            <tr>
              <th>Key</th>
              <th>Label</th>
              <th>Created</th>
              <th>Secret</th>
              <th>Stored</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {view.apiKeys.map((apiKey) => (
              <tr key={apiKey.id} data-testid="key-row" data-key-id={apiKey.id}>
                <td>
                  <code>{apiKey.hint}</code>
                </td>
                <td>{apiKey.label ?? ""}</td>
                <td>{apiKey.createdAt ? new Date(apiKey.createdAt).toLocaleString() : ""}</td>
                <td>{apiKey.requiresSecret ? "required" : "none"}</td>
                <td>{STORAGE_WORDS[apiKey.storage]}</td>
                <td className="settings-row-actions">
                  <button type="button" disabled={apiKey.storage === "unreadable"} onClick={() => void copy(apiKey.id)}>
                    {copied === apiKey.id ? "Copied" : apiKey.requiresSecret ? "Copy key:secret" : "Copy"}
                  </button>
                  <button
                    type="button"
                    className="settings-danger"
                    onClick={() => void revoke(apiKey.id, apiKey.label ?? apiKey.hint)}
                    data-testid="key-revoke"
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {created && (
        <div className="settings-created" data-testid="created-key-box">
          <p>New key (shown in full once; "Copy" puts it on the clipboard again later):</p>
          <code data-testid="created-key">{created.key}</code>
          {created.secret !== undefined && (
            <>
              <p>Its secret (send it as the Basic password: curl -u KEY:SECRET):</p>
              <code data-testid="created-secret">{created.secret}</code>
            </>
          )}
          <div className="settings-actions">
            <button type="button" onClick={() => void copy(created.id)}>
              {copied === created.id ? "Copied" : "Copy"}
            </button>
            <button type="button" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </div>
        </div>
      )}
      <form className="settings-actions" onSubmit={(event) => void create(event)}>
        <label>
          Label
          <input value={label} maxLength={64} placeholder="my bot" onChange={(event) => setLabel(event.target.value)} data-testid="key-label" />
        </label>
        <label className="settings-check">
          <input type="checkbox" checked={requireSecret} onChange={(event) => setRequireSecret(event.target.checked)} data-testid="key-require-secret" />
          Require a secret (Basic only; the key in the URL path is refused)
        </label>
        <button type="submit" className="settings-primary" data-testid="key-create">
          Create key
        </button>
      </form>
    </section>
  );
}
