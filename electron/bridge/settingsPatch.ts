// A change the settings page may make: only its own settings, each validated by the settings schema's own rule.
import { z } from "zod";
import { settingsSchema } from "../../shared/config/settings.ts";
import type { EditableSettings } from "./bridgeTypes.ts";

/** The settings the page may change; anything else (host, CORS, keys, the dashboard token) is refused by name. */
export const EDITABLE_SETTINGS = ["port", "chains", "notifications", "theme", "startAtLogin", "trayChainId"] as const satisfies ReadonlyArray<
  keyof EditableSettings
>;

const { port, chains, notifications, theme, startAtLogin, trayChainId } = settingsSchema.shape;

/**
 * Some of the page's settings; `null` returns a setting to its default (JSON has no undefined). Each value is checked
 * by the schema's own rule (without its default); the store validates the whole result again before writing it.
 */
export const settingsPatchSchema = z.strictObject({
  port: port.unwrap().nullable().optional(),
  chains: chains.unwrap().nullable().optional(),
  notifications: notifications.unwrap().nullable().optional(),
  theme: theme.unwrap().nullable().optional(),
  startAtLogin: startAtLogin.unwrap().nullable().optional(),
  trayChainId: trayChainId.unwrap().nullable().optional(),
} satisfies Record<(typeof EDITABLE_SETTINGS)[number], z.ZodType>);

export type SettingsPatch = z.input<typeof settingsPatchSchema>;
