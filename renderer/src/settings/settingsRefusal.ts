import type { AlertRuleProblem } from "../../../electron/bridge/bridgeTypes.ts";

/** Why the main process did not store a settings change: its words, and each alert rule and field at fault (if any). */
export interface SettingsRefusal {
  readonly message: string;
  readonly alertProblems: readonly AlertRuleProblem[];
}
