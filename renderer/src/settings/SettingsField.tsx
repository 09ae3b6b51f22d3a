import { type ReactNode, useId } from "react";

/**
 * A labelled field of the settings page with its problem (in the settings schema's words, after `problemLead`, like
 * "The gas:") right below it, tied to the input by aria-describedby (`children` gets the id while there is a problem).
 */
export function SettingsField({
  label,
  problem,
  problemLead,
  problemTestId,
  wide = false,
  children,
}: {
  label: string;
  problem: string | undefined;
  problemLead: string;
  problemTestId: string;
  wide?: boolean;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const problemId = useId();
  return (
    <label className={`settings-field${wide ? " settings-wide" : ""}${problem ? " settings-field-invalid" : ""}`}>
      {label}
      {children(problem ? problemId : undefined)}
      {problem ? (
        <span className="settings-field-error" id={problemId} role="alert" data-testid={problemTestId}>
          {problemLead} {problem}
        </span>
      ) : null}
    </label>
  );
}
