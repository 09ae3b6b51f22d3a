import { toGweiString } from "../../core/fees/gwei.ts";
import type { PooledBacktest } from "../../core/outlook/outlookBacktestSlices.ts";
import type { ForecastMoment, LowestFeeForecast } from "../../core/outlook/outlookEstimator.ts";
import { hoursAsDuration, lowestFeesOf, type OutlookBasis, probabilityAtOrBelowWei, weiTimesRatio } from "../../core/outlook/outlookFigures.ts";
import type { Action } from "../../core/costs/defaultActions.ts";
import { baseFeeForFiat } from "../../service/fiatBaseFee.ts";
import { OUTLOOK_MAX_WITHIN_HOURS, OUTLOOK_NEEDED_DAYS, type OutlookBody } from "../../wire/outlook.ts";
import { ApiError } from "../apiErrors.ts";
import { chainOfPath, type PublicationWithData } from "../chainOfPath.ts";
import { DEFAULT_WITHIN_HOURS, invalidOutlookQuery, type OutlookThreshold, parseOutlookQuery } from "../outlookQuery.ts";
import type { JsonReply, JsonRoute, QueryParameter } from "../routeTypes.ts";
import { dataAgeMsAt } from "../../service/chainPublication.ts";

/** The outlook's query parameters, for the OpenAPI description. */
const OUTLOOK_QUERY: readonly QueryParameter[] = [
  {
    name: "within",
    description: `The horizon H: a whole number of hours from 1h to 7d (${OUTLOOK_MAX_WITHIN_HOURS}h), written as a duration (1h, 6h, 24h, 2d, 7d); default ${DEFAULT_WITHIN_HOURS}h.`,
    schema: { type: "string", pattern: "^[1-9][0-9]{0,8}[smhdw]$" },
  },
  {
    name: "below",
    description: "A threshold in Gwei (at most 9 decimals): the chance that the lowest base fee within H is at or below it. At most one threshold.",
    schema: { type: "string", pattern: "^[0-9]+(\\.[0-9]{1,9})?$" },
  },
  {
    name: "belowRatio",
    description: "A threshold as a ratio (0 to 1) of the current base fee, rounded to whole wei. At most one threshold.",
    schema: { type: "string", pattern: "^[01](\\.[0-9]{1,12})?$" },
  },
  {
    name: "action",
    description:
      "With fiat: a threshold in money, the base fee at which this action's medium tier (as in /costs: gas x (base fee + medium tip) + its L1 and operator fees) costs fiat at the current price. One of /costs' action ids. At most one threshold.",
    schema: { type: "string" },
  },
  {
    name: "fiat",
    description: "With action: the amount of money, in /costs' currency (at most 8 decimals). Refused (400) while the chain has no price.",
    schema: { type: "string", pattern: "^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,8})?$" },
  },
];

/**
 * `GET /networks/{chainId}/outlook`: the chance that waiting gets a lower base fee, and the lowest base fee likely within
 * H, from the chain's hourly summaries, with the estimator's own backtest for H (CONTRACT.md, "Outlook: wait or pay
 * now"). The estimator is replayed once per closed hour and each forecast made once per block and horizon
 * (service/chainOutlook.ts); a horizon whose backtest is not prepared yet is answered once its slices are done.
 */
export const OUTLOOK_ROUTE: JsonRoute = {
  kind: "json",
  name: "getOutlook",
  summary:
    "If I wait, how likely is it to get cheaper? The quantiles (p10, p50, p90) of the lowest base fee within H, and with one threshold the chance that it is at or below it, " +
    "from the chain's hourly summaries, with the same estimator's walk-forward backtest for H (Brier, the 28-day climatology's, reliability by tenths). " +
    `Fewer than ${OUTLOOK_NEEDED_DAYS} days of summaries: 422 NOT_ENOUGH_HISTORY.`,
  path: "/networks/{chainId}/outlook",
  auth: "key",
  query: OUTLOOK_QUERY,
  extraErrors: ["INVALID_QUERY", "NOT_ENOUGH_HISTORY"],
  response: {
    schema: "Outlook",
    fresh: true,
    example: {
      chainId: "1",
      at: { block: "21000000", timestamp: 1767225600, baseFee: "15.1" },
      within: "6h",
      lowest: { p10: "9.8", p50: "12.2", p90: "14.9" },
      below: { baseFee: "11.3", probability: 0.41 },
      basis: { from: 1762387200, to: 1767225600, hours: 1344, sampledHours: 900, weeks: 8 },
      backtest: {
        forecasts: 4120,
        brier: 0.162,
        brierClimatology: 0.231,
        skill: 0.2987,
        reliability: Array.from({ length: 10 }, (_, tenth) => ({
          from: tenth / 10,
          to: (tenth + 1) / 10,
          forecasts: 412,
          meanProbability: tenth / 10 + 0.05,
          observed: tenth / 10 + 0.04,
        })),
      },
    },
  },
  reply: (context) => {
    chainOfPath(context, "base fee");
    // The query is read before the data is looked for: a malformed query is told even while there is no data.
    const query = parseOutlookQuery(context.target);
    const publication = chainOfPath(context, "data");
    const outlook = context.resources.source.outlook(publication.chainId)!;
    const basis = outlook.basis;
    if (basis.hours < OUTLOOK_NEEDED_DAYS * 24) {
      throw new ApiError("NOT_ENOUGH_HISTORY", { chainId: context.params["chainId"] ?? "", held: hoursAsDuration(basis.hours) });
    }
    const current = publication.snapshot.currentBaseFeeWei;
    const threshold = thresholdWei(query.threshold, publication, context.resources.costs.actions);
    // The forecast is made at the newest block's time (never before the end of the newest hour the estimator observed).
    const moment: ForecastMoment = { timestamp: Math.max(publication.status.history.newestTime ?? 0, basis.to), baseFee: current };
    const forecast = outlook.forecast(moment, query.withinHours);
    const backtest = outlook.backtest(query.withinHours);
    const question = `${query.withinHours}:${threshold ?? ""}`;
    const answer = (ready: LowestFeeForecast, track: PooledBacktest): JsonReply => {
      const make = () => outlookBody(publication, moment, query.withinHours, ready, threshold, basis, track);
      const { body, etag } = context.resources.outlooks.of(publication, question, track, make);
      const { freshHeaders } = context.resources.answers.of(publication);
      return { body, etag, headers: freshHeaders, dataAgeMs: dataAgeMsAt(publication, context.nowMs) };
    };
    if (!(forecast instanceof Promise) && !(backtest instanceof Promise)) return answer(forecast, backtest);
    return { deferred: async () => answer(await forecast, await backtest) };
  },
};

/** The threshold in wei (undefined when none was asked), or INVALID_QUERY for an unknown action or a chain without a price. */
function thresholdWei(threshold: OutlookThreshold, publication: PublicationWithData, actions: readonly Action[]): bigint | undefined {
  const current = publication.snapshot.currentBaseFeeWei;
  switch (threshold.kind) {
    case "none":
      return undefined;
    case "wei":
      return threshold.wei;
    case "ratio":
      return weiTimesRatio(current, threshold.ratio);
    case "fiat": {
      const action = actions.find((known) => known.id === threshold.actionId);
      if (action === undefined) {
        const ids = actions.map((known) => known.id).join(", ");
        throw invalidOutlookQuery("action", `is '${threshold.actionId.slice(0, 32)}', not an action of /costs: give one of ${ids}.`);
      }
      const wei = baseFeeForFiat(action, threshold.fiat, publication.snapshot, publication.money);
      if (wei === undefined) {
        const why = publication.money.priceProblem ?? "no price of the gas token has been read yet";
        throw invalidOutlookQuery(
          "fiat",
          `cannot be turned into a base fee now: the chain has no price (${why}). Ask with below=<gwei> or belowRatio=<0..1> instead, or retry once /costs shows a price.`,
        );
      }
      return wei;
    }
  }
}

function outlookBody(
  publication: PublicationWithData,
  moment: ForecastMoment,
  withinHours: number,
  forecast: LowestFeeForecast,
  threshold: bigint | undefined,
  basis: OutlookBasis,
  backtest: PooledBacktest,
): OutlookBody {
  const current = moment.baseFee;
  const lowest = lowestFeesOf(forecast, current);
  return {
    chainId: String(publication.chainId),
    at: { block: publication.snapshot.newestBlock.toString(), timestamp: moment.timestamp, baseFee: toGweiString(current) },
    within: `${withinHours}h`,
    lowest: { p10: toGweiString(lowest.p10), p50: toGweiString(lowest.p50), p90: toGweiString(lowest.p90) },
    below: threshold === undefined ? null : { baseFee: toGweiString(threshold), probability: probabilityAtOrBelowWei(forecast, current, threshold) },
    basis,
    backtest,
  };
}
