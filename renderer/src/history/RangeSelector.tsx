import { memo, useRef, type KeyboardEvent } from "react";
import { CHART_RANGES, type ChartRangeId } from "./chartRange.ts";
import { type HeldTimes, lastSpanWords } from "../text/windowWords.ts";

interface Props {
  readonly selected: ChartRangeId;
  /** Why the time ranges cannot be drawn (the service holds no history for this chain), or undefined when they can. */
  readonly timeRangesUnavailable: string | undefined;
  readonly onSelect: (range: ChartRangeId) => void;
  /** The history held, so that a range's title says how much of it is held while the history is shorter. */
  readonly history: HeldTimes;
  /** What the group is named for a screen reader (default "Chart range"), and its test ids' prefix ("blob-"). */
  readonly label?: string;
  readonly testIdPrefix?: string;
}

/** The chart's range: one radio group (Tab reaches the chosen one, the arrow keys move), as a row of segments. */
export const RangeSelector = memo(function RangeSelector({
  selected,
  timeRangesUnavailable,
  onSelect,
  history,
  label = "Chart range",
  testIdPrefix = "",
}: Props) {
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const usable = CHART_RANGES.filter((range) => range.kind === "blocks" || timeRangesUnavailable === undefined);
  const onKeyDown = (event: KeyboardEvent, id: ChartRangeId) => {
    const index = usable.findIndex((range) => range.id === id);
    const step = event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 0;
    if (step === 0 || index === -1) return;
    event.preventDefault();
    const target = usable[(index + step + usable.length) % usable.length]!;
    buttons.current[CHART_RANGES.indexOf(target)]?.focus();
    onSelect(target.id);
  };
  return (
    <div className="range-selector" role="radiogroup" aria-label={label} data-testid={`${testIdPrefix}range-selector`}>
      {CHART_RANGES.map((range, index) => {
        const checked = range.id === selected;
        const disabled = range.kind === "time" && timeRangesUnavailable !== undefined;
        return (
          <button
            key={range.id}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="radio"
            aria-checked={checked}
            disabled={disabled}
            tabIndex={checked ? 0 : -1}
            className={`range-option${checked ? " range-option-current" : ""}`}
            data-testid={`${testIdPrefix}range-${range.id}`}
            title={
              disabled
                ? timeRangesUnavailable
                : range.kind === "blocks"
                  ? `The newest ${range.label}, one point per block, live`
                  : `${upperFirst(lastSpanWords(range.windowSeconds, history))} in ${range.buckets} buckets: median, 25th–75th and 10th–90th percentiles, min–max`
            }
            onClick={() => onSelect(range.id)}
            onKeyDown={(event) => onKeyDown(event, range.id)}
          >
            {range.label}
          </button>
        );
      })}
    </div>
  );
});

const upperFirst = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);
