import { type ReactNode, useState } from "react";
import { DEFAULT_ACTIONS } from "../../../shared/core/costs/defaultActions.ts";
import {
  type ActionDraft,
  type ActionDraftField,
  type ActionProblems,
  checkActionDraft,
  checkCurrency,
  draftOfAction,
  EMPTY_ACTION_DRAFT,
} from "./actionDrafts.ts";
import { SettingsField } from "./SettingsField.tsx";
import type { ActionSettings, SettingsPatch, SettingsView } from "./settingsClient.ts";

const GROUPED = new Intl.NumberFormat("en-US");

/**
 * Costs in money: the currency, the action whose cost the tray shows, and the user's own actions (besides the
 * defaults; one with a default's id replaces it). Each field is checked with the settings' own schema beside it.
 */
export function CostsSection({ view, onSave }: { view: SettingsView; onSave: (patch: SettingsPatch) => Promise<boolean> }) {
  const own = view.settings.actions;
  // Which action is being edited: its index among the user's, "new", or none.
  const [editing, setEditing] = useState<number | "new" | undefined>();
  const trayChoices = [...DEFAULT_ACTIONS.filter((action) => !own.some((mine) => mine.id === action.id)), ...own];
  const saveActions = (actions: ActionSettings[]) => onSave({ actions: actions.length === 0 ? null : actions });
  return (
    <section className="settings-section" data-testid="settings-costs">
      <h3>Costs</h3>
      <p className="settings-hint">
        The dashboard shows what each action costs now, in your currency, from the price of each chain&apos;s gas token read on chain (Chainlink price feeds,
        through your own RPC endpoints: no web service, no key). The default feeds are quoted in USD; another currency needs a feed quoted in it (a chain&apos;s{" "}
        <code>priceFeed</code> in the settings file).
      </p>
      <div className="settings-actions">
        <CurrencyForm key={view.settings.currency} stored={view.settings.currency} onSave={onSave} />
        <label>
          The tray shows
          <select
            value={view.settings.trayAction ?? ""}
            onChange={(event) => void onSave({ trayAction: event.target.value === "" ? null : event.target.value })}
            data-testid="tray-action"
          >
            <option value="">the base fee (Gwei)</option>
            {trayChoices.map((action) => (
              <option key={action.id} value={action.id}>
                the cost of: {action.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <h4>Actions</h4>
      <p className="settings-hint">
        Shown by default: {DEFAULT_ACTIONS.map((action) => `${action.name} (${GROUPED.format(action.gas)} gas, ${action.txBytes} bytes)`).join(", ")}. Add your
        own below: its gas (from a transaction of yours, on a block explorer) and the size of its signed transaction in bytes (what a rollup&apos;s L1 data fee
        is charged on).
      </p>
      {own.length === 0 ? (
        <p className="settings-hint" data-testid="actions-empty">
          No actions of your own yet.
        </p>
      ) : (
        <table className="settings-keys" data-testid="own-actions">
          <thead>
            <tr>
              <th>Action</th>
              <th>Gas</th>
              <th>Size</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {own.map((action, index) => (
              <tr key={action.id} data-testid="own-action" data-id={action.id}>
                <td>
                  {action.name} <span className="settings-hint">{action.id}</span>
                </td>
                <td>{GROUPED.format(action.gas)}</td>
                <td>{GROUPED.format(action.txBytes)} bytes</td>
                <td>
                  <div className="settings-row-actions">
                    <button type="button" onClick={() => setEditing(index)} disabled={editing !== undefined}>
                      Edit
                    </button>
                    <button
                      type="button"
                      className="settings-danger"
                      onClick={() => void saveActions(own.filter((_, at) => at !== index))}
                      data-testid="action-delete"
                    >
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing === undefined ? (
        <div className="settings-actions">
          <button type="button" onClick={() => setEditing("new")} data-testid="action-add">
            Add an action
          </button>
        </div>
      ) : (
        <ActionForm
          key={String(editing)}
          initial={editing === "new" ? EMPTY_ACTION_DRAFT : draftOfAction(own[editing]!)}
          isNew={editing === "new"}
          takenIds={own.filter((_, at) => at !== editing).map((action) => action.id)}
          onCancel={() => setEditing(undefined)}
          onSave={async (action) => {
            const next = editing === "new" ? [...own, action] : own.map((each, at) => (at === editing ? action : each));
            const stored = await saveActions(next);
            if (stored) setEditing(undefined);
          }}
        />
      )}
    </section>
  );
}

function CurrencyForm({ stored, onSave }: { stored: string; onSave: (patch: SettingsPatch) => Promise<boolean> }) {
  const [text, setText] = useState(stored);
  const [problem, setProblem] = useState<string | undefined>();
  return (
    <form
      className="settings-actions"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const checked = checkCurrency(text);
        if (!checked.ok) return setProblem(checked.problem);
        setProblem(undefined);
        void onSave({ currency: checked.currency === "USD" ? null : checked.currency });
      }}
    >
      <SettingsField label="Currency" problem={problem} problemLead="The currency:" problemTestId="currency-error">
        {(describedBy) => (
          <input
            value={text}
            size={5}
            spellCheck={false}
            onChange={(event) => {
              setText(event.target.value);
              setProblem(undefined);
            }}
            aria-invalid={problem !== undefined}
            aria-describedby={describedBy}
            data-testid="currency-input"
          />
        )}
      </SettingsField>
      <button type="submit" disabled={text.trim().toUpperCase() === stored} data-testid="currency-save">
        Change currency
      </button>
    </form>
  );
}

const FIELD_NAMES: Record<ActionDraftField, string> = { id: "The id:", name: "The name:", gas: "The gas:", txBytes: "The size:" };

function ActionForm({
  initial,
  isNew,
  takenIds,
  onCancel,
  onSave,
}: {
  initial: ActionDraft;
  isNew: boolean;
  takenIds: readonly string[];
  onCancel: () => void;
  onSave: (action: ActionSettings) => Promise<void>;
}) {
  const [draft, setDraft] = useState(initial);
  const [problems, setProblems] = useState<ActionProblems>({});
  const [saving, setSaving] = useState(false);
  const set = (field: ActionDraftField, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    // A field's problem goes once it is changed; the next save checks it again.
    setProblems((current) => ({ ...current, [field]: undefined }));
  };
  const field = (name: ActionDraftField, label: string, placeholder: string, inputMode?: "numeric") => (
    <Field label={label} field={name} problems={problems}>
      {(describedBy) => (
        <input
          value={draft[name]}
          placeholder={placeholder}
          inputMode={inputMode}
          spellCheck={false}
          onChange={(event) => set(name, event.target.value)}
          aria-describedby={describedBy}
          aria-invalid={problems[name] !== undefined}
          data-testid={`action-${name}`}
        />
      )}
    </Field>
  );
  return (
    <form
      className="settings-alert-form"
      data-testid="action-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const checked = checkActionDraft(draft, takenIds);
        if (!checked.ok) return setProblems(checked.problems);
        setProblems({});
        setSaving(true);
        void onSave(checked.action).finally(() => setSaving(false));
      }}
    >
      <h4>{isNew ? "New action" : `Edit the action ${initial.id}`}</h4>
      <div className="settings-alert-fields">
        {field("name", "Name", "Bridge to Base")}
        {field("id", "Id (for the API and alert rules)", "bridge")}
        {field("gas", "Gas", "120000", "numeric")}
        {field("txBytes", "Signed size (bytes)", "400", "numeric")}
      </div>
      <div className="settings-actions settings-alert-buttons">
        <button type="submit" className="settings-primary" disabled={saving} data-testid="action-save">
          {isNew ? "Add the action" : "Save the action"}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A labelled field of the action form with its problem right below it (SettingsField). */
function Field({
  label,
  field,
  problems,
  children,
}: {
  label: string;
  field: ActionDraftField;
  problems: ActionProblems;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  return (
    <SettingsField label={label} problem={problems[field]} problemLead={FIELD_NAMES[field]} problemTestId={`action-error-${field}`}>
      {children}
    </SettingsField>
  );
}
