// The settings of costs that the desktop settings page checks as the main process does (as alertRuleSchema.ts for
// alert rules): one of the user's actions, and the currency. shared/config/settings.ts builds the settings file's
// schema from them; the page imports them from here (it may take values from shared/wire only).
import { z } from "zod";

/**
 * An action whose cost /costs shows, besides the default ones (shared/core/costs/defaultActions.ts); one with a
 * default's id replaces that default.
 */
export const actionSettingsSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, "an action id is 1 to 32 lower-case letters, digits or dashes, like my-bridge"),
  name: z.string().trim().min(1, "an action needs a name").max(64),
  /** Gas the action uses: a whole number from 21,000 (a plain transfer) to 30,000,000 (a block). */
  gas: z
    .number()
    .int("gas is a whole number")
    .min(21_000, "an action uses at least 21,000 gas (a plain transfer)")
    .max(30_000_000, "an action uses at most 30,000,000 gas (a whole block)"),
  /** The signed transaction's size in bytes, for a rollup's L1 data fee. */
  txBytes: z
    .number()
    .int("txBytes is a whole number")
    .min(85, "a signed transaction is at least 85 bytes")
    .max(131_072, "txBytes is at most 131,072 (128 KiB)"),
});

/** The currency of costs: ISO 4217 letters. */
export const currencySchema = z
  .string()
  .trim()
  .regex(/^[A-Z]{3}$/, 'a currency is three capital letters, like "USD" or "EUR"');

export type ActionSettings = z.infer<typeof actionSettingsSchema>;
