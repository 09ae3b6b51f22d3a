// A change the settings page may make: only its own settings, each validated by the settings schema's own rule.
import { z } from "zod";
import { MAX_ALERT_RULES } from "../../shared/alerts/loadAlertRules.ts";
import { settingsSchema } from "../../shared/config/settings.ts";
import type { EditableSettings } from "./bridgeTypes.ts";

/** The settings the page may change; anything else (host, CORS, keys, the dashboard token) is refused by name. */
export const EDITABLE_SETTINGS = [
  "port",
  "chains",
  "notifications",
  "alerts",
  "theme",
  "startAtLogin",
  "trayChainId",
  "currency",
  "actions",
  "trayAction",
] as const satisfies ReadonlyArray<keyof EditableSettings>;

const { port, chains, notifications, theme, startAtLogin, trayChainId, currency, actions, trayAction } = settingsSchema.shape;

/**
 * The whole list of the user's alert rules, as the page sends it after an add, edit, switch or delete. Each rule the
 * patch adds or changes is checked when the patch is applied (settingsView.ts's applySettingsPatch: the rule's own
 * schema, `alertRuleSettingsSchema`, and its chain, window and id against the patched settings, through
 * `loadAlertRules`), so that a refusal names the rule by its id and the field at fault; a rule the file already holds
 * and the page sends back unchanged is kept as it is, even one the service refuses (the user fixes it in the file).
 */
const alertRulesPatch = z.array(z.unknown()).max(MAX_ALERT_RULES, `at most ${MAX_ALERT_RULES} alert rules are read; remove some`);

/**
 * Some of the page's settings; `null` returns a setting to its default (JSON has no undefined). Each value is checked
 * by the schema's own rule (without its default); the store validates the whole result again before writing it.
 */
export const settingsPatchSchema = z.strictObject({
  port: port.unwrap().nullable().optional(),
  chains: chains.unwrap().nullable().optional(),
  notifications: notifications.unwrap().nullable().optional(),
  alerts: alertRulesPatch.nullable().optional(),
  theme: theme.unwrap().nullable().optional(),
  startAtLogin: startAtLogin.unwrap().nullable().optional(),
  trayChainId: trayChainId.unwrap().nullable().optional(),
  currency: currency.unwrap().nullable().optional(),
  actions: actions.unwrap().nullable().optional(),
  trayAction: trayAction.unwrap().nullable().optional(),
} satisfies Record<(typeof EDITABLE_SETTINGS)[number], z.ZodType>);

export type SettingsPatch = z.input<typeof settingsPatchSchema>;
