import { memo } from "react";
import type { HistoryStatus } from "../../../shared/wire/networkStatus.ts";
import { backfillWords } from "./backfillWords.ts";
import "./backfill.css";

/**
 * While the service fetches a chain's older blocks: how much of the history's horizon it holds (of what the chain has,
 * when it is younger), as a bar and in words.
 */
export const BackfillProgress = memo(function BackfillProgress({ history, chainName }: { history: HistoryStatus; chainName: string }) {
  if (!history.backfill.running) return null;
  const words = backfillWords(history);
  const percent = Math.floor(words.progress * 100);
  return (
    <div className="backfill" data-testid="backfill" data-progress={words.progress}>
      <div className="backfill-words">
        <strong>Fetching older blocks</strong>
        <span data-testid="backfill-held" title={words.why}>
          {words.held}
        </span>
        {words.toGo === undefined ? null : <span className="backfill-to-go">{words.toGo}</span>}
      </div>
      <div
        className="backfill-bar"
        role="progressbar"
        aria-label={`History of ${chainName} held`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={words.held}
      >
        <div className="backfill-fill" style={{ width: `${words.progress * 100}%` }} />
      </div>
    </div>
  );
});
