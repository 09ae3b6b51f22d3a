import { type ReactNode, useState } from "react";
import { SettingsField } from "./SettingsField.tsx";
import { webhookShown } from "../../../shared/core/alerts/webhookUrl.ts";
import { conditionWords, cooldownWords, forBlocksWords } from "../text/alertWords.ts";
import {
  type AlertDraft,
  type AlertDraftField,
  checkDraft,
  draftOfStoredRule,
  type DraftProblems,
  newAlertDraft,
  problemsOfRefusal,
  type StoredRuleRow,
  storedIds,
  storedRuleRows,
  withoutRule,
  withRuleEnabled,
  withRuleSaved,
} from "./alertDrafts.ts";
import type { ChainSettings, SettingsRefusal, SettingsView } from "./settingsClient.ts";

interface Props {
  readonly view: SettingsView;
  /** Stores the whole list of rules; resolves with the main process's refusal, else undefined. */
  readonly onSave: (alerts: unknown[]) => Promise<SettingsRefusal | undefined>;
}

/** A chain's statistics window when its settings name none: shared/service/chainPlan.ts's (the page may not import it). */
const DEFAULT_STATS_WINDOW = "24h";

/** How a field's problem starts: the schema's message follows ("The percentile must be a whole number from 1 to 99 …"). */
const FIELD_NAMES: Record<AlertDraftField, string> = {
  chainId: "The chain",
  fee: "The fee compared",
  when: "The condition",
  gwei: "The fee",
  percentile: "The percentile",
  window: "The window",
  forBlocks: "The number of blocks",
  cooldownMinutes: "The cooldown",
  webhookUrl: "The webhook URL",
  label: "The label",
};

/** The rule being edited: its place in the stored list, or undefined for a new one. */
interface Editing {
  readonly index: number | undefined;
  readonly draft: AlertDraft;
}

/**
 * The user's alert rules (settings' `alerts`): listed with their condition in words, turned on and off, deleted, and
 * added or edited in a form that checks each field with the settings file's own schema before anything is sent.
 */
export function AlertsSection({ view, onSave }: Props) {
  const rules = view.settings.alerts;
  const chains = view.settings.chains ?? view.defaultChains;
  const [editing, setEditing] = useState<Editing | undefined>();
  const [listError, setListError] = useState<string | undefined>();
  /** A switch turned while its change is on its way: shown as turned (the stored value returns if it is refused). */
  const [switching, setSwitching] = useState<ReadonlyMap<number, boolean>>(() => new Map());
  const rows = storedRuleRows(rules, view.alertProblems);

  const saveList = async (next: unknown[]) => {
    setListError((await onSave(next))?.message);
  };
  const switchRule = async (index: number, enabled: boolean) => {
    setSwitching((current) => new Map(current).set(index, enabled));
    await saveList(withRuleEnabled(rules, index, enabled));
    setSwitching((current) => {
      const next = new Map(current);
      next.delete(index);
      return next;
    });
  };

  return (
    <section className="settings-section" data-testid="settings-alerts">
      <h3>Alerts</h3>
      <p className="settings-hint">
        Be told when a chain&apos;s base fee is below or above a value: a fixed fee in Gwei (&ldquo;below 8 Gwei&rdquo;), or a percentile of the chain&apos;s
        own recent fees (&ldquo;above the 7 d p95&rdquo;). A rule fires once when its condition becomes true, then waits until it has been false as many blocks
        as it had to hold, and never fires twice within its cooldown. Each alert is a desktop notification, an event on the API&apos;s event stream and, if you
        give one, a POST to a webhook (https, or http to this computer).
      </p>
      {rows.length === 0 ? (
        <p className="settings-hint" data-testid="alerts-empty">
          No alert rules yet.
        </p>
      ) : (
        <table className="settings-keys settings-alerts" data-testid="alert-rules">
          <thead>
            <tr>
              <th scope="col">On</th>
              <th scope="col">Chain</th>
              <th scope="col">Condition</th>
              <th scope="col">Holds for</th>
              <th scope="col">Cooldown</th>
              <th scope="col">Webhook</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <RuleRow
                key={row.index}
                row={row}
                chains={chains}
                editing={editing?.index === row.index}
                enabled={switching.get(row.index) ?? row.rule?.enabled ?? true}
                onEnable={(enabled) => void switchRule(row.index, enabled)}
                onEdit={() => setEditing({ index: row.index, draft: draftOfStoredRule(rules[row.index]) })}
                onDelete={() => void saveList(withoutRule(rules, row.index))}
              />
            ))}
          </tbody>
        </table>
      )}
      {listError && (
        <p className="banner settings-error" role="alert" data-testid="alerts-list-error">
          {listError}
        </p>
      )}
      {editing ? (
        <RuleForm
          key={editing.index ?? "new"}
          initial={editing.draft}
          isNew={editing.index === undefined}
          chains={chains}
          takenIds={storedIds(rules, editing.index)}
          onCancel={() => setEditing(undefined)}
          onSave={async (rule) => {
            const refusal = await onSave(withRuleSaved(rules, editing.index, rule));
            if (refusal === undefined) setEditing(undefined);
            return refusal;
          }}
        />
      ) : (
        <div className="settings-actions">
          <button
            type="button"
            disabled={chains.length === 0}
            onClick={() => setEditing({ index: undefined, draft: newAlertDraft(chains[0]?.chainId) })}
            data-testid="alert-add"
          >
            Add an alert rule
          </button>
          {chains.length === 0 ? <span className="settings-hint">Follow a chain first (Chains, below).</span> : null}
        </div>
      )}
    </section>
  );
}

function chainName(chains: readonly ChainSettings[], chainId: number): string {
  const chain = chains.find((candidate) => candidate.chainId === chainId);
  return chain === undefined ? `chain ${chainId} (not followed)` : (chain.name ?? `Chain ${chainId}`);
}

/** The window a percentile rule without its own uses: the chain's statistics window. */
function chainWindow(chains: readonly ChainSettings[], chainId: number | string): string {
  const chain = chains.find((candidate) => String(candidate.chainId) === String(chainId));
  if (chain?.statsWindow !== undefined) return chain.statsWindow;
  if (chain?.statsWindowBlocks !== undefined && chain.statsWindowBlocks > 500) return `${chain.statsWindowBlocks} blocks`;
  return DEFAULT_STATS_WINDOW;
}

function RuleRow({
  row,
  chains,
  editing,
  enabled,
  onEnable,
  onEdit,
  onDelete,
}: {
  row: StoredRuleRow;
  chains: readonly ChainSettings[];
  editing: boolean;
  /** The switch as shown: the stored value, or the one on its way. */
  enabled: boolean;
  onEnable: (enabled: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const actions = (
    <td>
      <div className="settings-row-actions">
        <button type="button" onClick={onEdit} disabled={editing} data-testid="alert-edit">
          Edit
        </button>
        <button type="button" className="settings-danger" onClick={onDelete} data-testid="alert-delete">
          Delete
        </button>
      </div>
    </td>
  );
  const { rule } = row;
  const refused =
    row.problems.length === 0 ? null : (
      <span className="settings-rule-refused" data-testid="alert-refused">
        Refused, so it does not run: {row.problems.join("; ")}
      </span>
    );
  if (rule === undefined) {
    return (
      <tr data-testid="alert-rule" data-rule={row.name} data-valid="false">
        <td />
        <td colSpan={5}>
          Rule <code>{row.name}</code> {refused}
        </td>
        {actions}
      </tr>
    );
  }
  return (
    <tr
      data-testid="alert-rule"
      data-rule={rule.id}
      data-valid={String(refused === null)}
      data-enabled={String(rule.enabled)}
      className={enabled ? undefined : "settings-off"}
    >
      <td>
        <input
          type="checkbox"
          checked={enabled}
          aria-label={`${enabled ? "Turn off" : "Turn on"} ${rule.label ?? rule.id}`}
          onChange={(event) => onEnable(event.target.checked)}
          data-testid="alert-enabled"
        />
      </td>
      <td>{chainName(chains, rule.chainId)}</td>
      <td data-testid="alert-condition">
        {conditionWords(rule, chainWindow(chains, rule.chainId))}
        <span className="settings-rule-name">{rule.label ? ` · ${rule.label}` : ""}</span>
        {refused}
      </td>
      <td>{forBlocksWords(rule.forBlocks)}</td>
      <td>{cooldownWords(rule.cooldownMinutes)}</td>
      <td data-testid="alert-webhook">{rule.webhookUrl === undefined ? <span className="settings-hint">none</span> : webhookShown(rule.webhookUrl)}</td>
      {actions}
    </tr>
  );
}

function RuleForm({
  initial,
  isNew,
  chains,
  takenIds,
  onCancel,
  onSave,
}: {
  initial: AlertDraft;
  isNew: boolean;
  chains: readonly ChainSettings[];
  takenIds: readonly string[];
  onCancel: () => void;
  /** Resolves with the main process's refusal, or undefined once stored. */
  onSave: (rule: Parameters<typeof withRuleSaved>[2]) => Promise<SettingsRefusal | undefined>;
}) {
  const [draft, setDraft] = useState(initial);
  const [problems, setProblems] = useState<DraftProblems>({});
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof AlertDraft>(field: K, value: AlertDraft[K]) => {
    setDraft((current) => ({ ...current, [field]: value }));
    // A field's problem goes once it is changed; the next save checks it again.
    setProblems((current) => ({ ...current, [field]: undefined }));
  };
  const followed = chains.some((chain) => String(chain.chainId) === draft.chainId);

  const submit = async () => {
    const checked = checkDraft(draft, takenIds);
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    setProblems({});
    setSaving(true);
    const refused = await onSave(checked.rule);
    setSaving(false);
    // The main process checks the rule again, against the chains too: its refusal goes beside the fields it names.
    if (refused !== undefined) setProblems(problemsOfRefusal(refused, checked.rule.id));
  };

  return (
    <form
      className="settings-alert-form"
      data-testid="alert-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h4>{isNew ? "New alert rule" : `Edit the rule ${draft.id}`}</h4>
      <div className="settings-alert-fields">
        <Field label="Chain" field="chainId" problems={problems}>
          {(describedBy) => (
            <select value={draft.chainId} onChange={(event) => set("chainId", event.target.value)} aria-describedby={describedBy} data-testid="alert-chain">
              {followed || draft.chainId === "" ? null : <option value={draft.chainId}>{`chain ${draft.chainId} (not followed)`}</option>}
              {chains.map((chain) => (
                <option key={chain.chainId} value={String(chain.chainId)}>
                  {chain.name ?? `Chain ${chain.chainId}`}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Compare" field="fee" problems={problems}>
          {(describedBy) => (
            <select
              value={draft.fee}
              onChange={(event) => set("fee", event.target.value as AlertDraft["fee"])}
              aria-describedby={describedBy}
              data-testid="alert-fee"
            >
              <option value="base">the base fee</option>
              <option value="blob">the blob base fee (EIP-4844)</option>
            </select>
          )}
        </Field>
        <Field label={draft.fee === "blob" ? "When the blob base fee is" : "When the base fee is"} field="when" problems={problems}>
          {(describedBy) => (
            <select
              value={draft.when}
              onChange={(event) => set("when", event.target.value as AlertDraft["when"])}
              aria-describedby={describedBy}
              data-testid="alert-when"
            >
              <option value="below">below (or at)</option>
              <option value="above">above</option>
            </select>
          )}
        </Field>
        <fieldset className="settings-threshold-kind">
          <legend>Threshold</legend>
          <label className="settings-check">
            <input type="radio" checked={draft.thresholdKind === "gwei"} onChange={() => set("thresholdKind", "gwei")} data-testid="alert-kind-gwei" />a fixed
            fee
          </label>
          <label className="settings-check">
            <input
              type="radio"
              checked={draft.thresholdKind === "percentile"}
              onChange={() => set("thresholdKind", "percentile")}
              data-testid="alert-kind-percentile"
            />
            a percentile of the chain&apos;s fees
          </label>
        </fieldset>
        {draft.thresholdKind === "gwei" ? (
          <TextField label="Fee (Gwei)" field="gwei" inputMode="decimal" placeholder="8" testId="alert-gwei" draft={draft} problems={problems} onChange={set} />
        ) : (
          <>
            <TextField
              label="Percentile (1–99)"
              field="percentile"
              inputMode="numeric"
              placeholder="20"
              testId="alert-percentile"
              draft={draft}
              problems={problems}
              onChange={set}
            />
            <TextField
              label="Over the window"
              field="window"
              placeholder={`${chainWindow(chains, draft.chainId)} (the chain's)`}
              testId="alert-window"
              draft={draft}
              problems={problems}
              onChange={set}
            />
          </>
        )}
      </div>
      <div className="settings-alert-fields">
        <TextField
          label="Holds for (blocks in a row)"
          field="forBlocks"
          inputMode="numeric"
          placeholder="1"
          testId="alert-for-blocks"
          draft={draft}
          problems={problems}
          onChange={set}
        />
        <TextField
          label="Cooldown (minutes)"
          field="cooldownMinutes"
          inputMode="decimal"
          placeholder="15"
          testId="alert-cooldown"
          draft={draft}
          problems={problems}
          onChange={set}
        />
        <TextField
          label="Webhook URL (optional)"
          field="webhookUrl"
          type="url"
          placeholder="https://hooks.slack.com/services/…"
          testId="alert-webhook-url"
          wide
          draft={draft}
          problems={problems}
          onChange={set}
        />
        <TextField label="Label (optional)" field="label" placeholder="Cheap ETH" testId="alert-label" draft={draft} problems={problems} onChange={set} />
      </div>
      {problems.rule ? (
        <p className="banner settings-error" role="alert" data-testid="alert-form-error">
          {problems.rule}
        </p>
      ) : null}
      <div className="settings-actions settings-alert-buttons">
        {isNew ? (
          <label className="settings-check">
            <input type="checkbox" checked={draft.enabled} onChange={(event) => set("enabled", event.target.checked)} data-testid="alert-form-enabled" />
            On from the start
          </label>
        ) : null}
        <button type="submit" className="settings-primary" disabled={saving} data-testid="alert-save">
          {isNew ? "Add the rule" : "Save the rule"}
        </button>
        <button type="button" onClick={onCancel} data-testid="alert-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The draft's fields typed as text. */
type TextDraftField = "gwei" | "percentile" | "window" | "forBlocks" | "cooldownMinutes" | "webhookUrl" | "label";

/** A text field of the draft, in a Field. */
function TextField({
  label,
  field,
  inputMode,
  type,
  placeholder,
  testId,
  wide = false,
  draft,
  problems,
  onChange,
}: {
  label: string;
  field: TextDraftField;
  inputMode?: "decimal" | "numeric";
  type?: "url";
  placeholder: string;
  testId: string;
  wide?: boolean;
  draft: AlertDraft;
  problems: DraftProblems;
  onChange: (field: TextDraftField, value: string) => void;
}) {
  return (
    <Field label={label} field={field} problems={problems} wide={wide}>
      {(describedBy) => (
        <input
          type={type}
          inputMode={inputMode}
          spellCheck={type === "url" ? false : undefined}
          value={draft[field]}
          placeholder={placeholder}
          onChange={(event) => onChange(field, event.target.value)}
          aria-describedby={describedBy}
          aria-invalid={problems[field] !== undefined}
          data-testid={testId}
        />
      )}
    </Field>
  );
}

/** A labelled field of the rule form with its problem right below it (SettingsField). */
function Field({
  label,
  field,
  problems,
  wide = false,
  children,
}: {
  label: string;
  field: AlertDraftField;
  problems: DraftProblems;
  wide?: boolean;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  return (
    <SettingsField label={label} problem={problems[field]} problemLead={FIELD_NAMES[field]} problemTestId={`alert-error-${field}`} wide={wide}>
      {children}
    </SettingsField>
  );
}
