import { redactUrlsIn } from "../rpc/connection/redactUrl.ts";

/**
 * An endpoint's backfill answers contradict what is asked or known: a page that does not end where asked, fewer blocks
 * than its own limit, a header whose base fee differs from the page's, timestamps that go backwards or into the future.
 * Each answer parses; together they cannot be true. The backfill sets the endpoint aside.
 */
export class BackfillAnswerError extends Error {
  override name = "BackfillAnswerError";
  /** The endpoint's redacted URL. */
  readonly url: string;
  constructor(url: string, problem: string) {
    const shownUrl = redactUrlsIn(url);
    super(
      `${shownUrl} answered the history's backfill inconsistently: ${redactUrlsIn(problem)}. The backfill sets it aside and goes on through the chain's other endpoints; if this persists, check that the URL is a full node of this chain.`,
    );
    this.url = shownUrl;
  }
}
