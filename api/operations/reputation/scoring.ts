/**
 * Analysts' scoring (spec "scoring record by address" and "scoring cohort"; paths ours, docs/leaderboard.md
 * "Analysts' scoring"): how well an account's analyst takes forecast the markets that resolved, against the market's
 * own price when each take was published, and the cohort of every analyst to read it against.
 */
import { z } from "zod";
import { defineOperation } from "../../registry/types";
import type { ServiceContext } from "../../context";
import { boundsOf, PERIODS, type PeriodBounds, type PeriodKind } from "../../domain/ranking/periods";
import {
  calibrationOf,
  cohortOf,
  figuresOf,
  MIN_SCORED_TAKES_TO_RANK,
  SCORING_METHOD,
  recentScoredTakes,
  squaredError,
  UNSCORED,
  unscoredTakes,
} from "../../domain/ranking/take-scoring";
import { decimal, iso, periodSchema } from "../discover/ranking-schemas";
import { evmAddress, PUBLIC_READ } from "../discover/common";
import { formatUnits } from "viem";

const SCORING_READ = { ...PUBLIC_READ, category: "reputation" } as const;
const address = z.string().regex(/^0x[0-9a-f]{40}$/);
const brier = decimal.describe("mean squared error of the forecasts of YES, 0 (perfect) .. 1, six decimals rounded down");

/** An analyst's figures over a set of scored takes (its record, the cohort, a take's author in the research read). */
export const scoringFigures = {
  scoredTakes: z.number().int().min(0),
  meanBrier: brier.nullable(),
  marketMeanBrier: brier.nullable().describe("the same score for the market's displayed price when each take was published"),
  skill: decimal.nullable().describe("marketMeanBrier − meanBrier: above 0 when the takes beat the price they could read"),
};
const calibration = z
  .array(
    z.object({
      from: decimal,
      to: decimal,
      forecasts: z.number().int().min(0),
      meanProbability: decimal.nullable(),
      observedYes: decimal.nullable().describe("the share of these forecasts' markets that resolved YES"),
    }),
  )
  .length(10)
  .describe("forecasts of YES in ten buckets of 0.1 (the last holds 1): how often what was forecast happened");
const paging = {
  period: z.enum(PERIODS).default("all").describe("of the market's resolution, as the leaderboard's periods"),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
};
const common = {
  method: z.literal(SCORING_METHOD),
  period: periodSchema,
  asOf: iso,
  minScoredTakesToRank: z.number().int().describe(`scored takes in the period an analyst needs to be ranked (${MIN_SCORED_TAKES_TO_RANK})`),
};

const instant = (ms: number) => new Date(ms).toISOString();
const probability = (ppm: number) => ppm / 1_000_000;

/** The period's bounds now, with the championship window of the configuration. */
function periodOf(ctx: ServiceContext, kind: PeriodKind): { bounds: PeriodBounds; now: number } {
  const now = ctx.clock.now();
  return { now, bounds: boundsOf(kind, now, { start: ctx.config.LEADERBOARD_SEASON_START, end: ctx.config.LEADERBOARD_SEASON_END }) };
}
const periodView = (b: PeriodBounds) => ({ kind: b.kind, start: b.start === null ? null : instant(b.start), end: instant(b.end) });

export const getScoringRecord = defineOperation({
  id: "getScoringRecord",
  method: "GET",
  path: "/reputation/wallets/{walletAddress}/scoring",
  summary: "An analyst's scoring record: its takes on resolved markets, scored against the outcome and the market",
  description:
    "Every take for a market's resolution (no horizon) on a binary market that resolved in the period, Brier-scored, beside the market's own displayed price when the take was published. `skill` above 0 means the takes beat the market. Ranked in the scoring cohort from 5 scored takes. An address that wrote no take answers zeros. See docs/leaderboard.md \"Analysts' scoring\".",
  ...SCORING_READ,
  request: { params: z.strictObject({ walletAddress: evmAddress }), query: z.strictObject(paging) },
  response: z.object({
    walletAddress: address,
    agentId: z.string().nullable().describe("the agent whose ledger account this is; null when none"),
    name: z.string().nullable(),
    ...common,
    rank: z.number().int().min(1).nullable().describe("place in the scoring cohort of the period; null below minScoredTakesToRank"),
    rankedAmong: z.number().int().min(0),
    ...scoringFigures,
    unscored: z
      .object({ pending: z.number().int(), void: z.number().int(), horizon: z.number().int() })
      .describe("the account's takes not scored now: on markets not final, on void markets, and takes for a horizon"),
    calibration,
    total: z.number().int().min(0),
    hasMore: z.boolean(),
    takes: z.array(
      z.object({
        marketAddress: z.string(),
        chainId: z.number().int(),
        title: z.string(),
        probability: z.number().min(0).max(1).describe("the take's probability of YES"),
        marketProbability: z.number().min(0).max(1).describe("the market's displayed YES price when the take was published"),
        outcome: z.enum(["YES", "NO"]),
        brier,
        marketBrier: brier,
        takenAt: iso,
        resolvedAt: iso,
      }),
    ),
  }),
  mcpTool: "svc_get_scoring_record",
  async handler(ctx, { params, query }) {
    const account = params.walletAddress;
    const { bounds, now } = periodOf(ctx, query.period);
    const [all, unscored, [agent]] = await Promise.all([
      recentScoredTakes(ctx.db, bounds, now),
      unscoredTakes(ctx.db, account),
      ctx.db.query<{ id: string; name: string }>(`SELECT id, name FROM api_agents WHERE ledger_account = $1`, [account]),
    ]);
    const { members, ranked } = cohortOf(all);
    const mine = all.filter((t) => t.account === account);
    const member = members.get(account);
    const score = (ppm: number, yes: boolean) => formatUnits(squaredError(ppm, yes) / 1_000_000n, 6);
    return {
      walletAddress: account,
      agentId: agent?.id ?? null,
      name: agent?.name ?? null,
      method: SCORING_METHOD,
      period: periodView(bounds),
      asOf: instant(now),
      minScoredTakesToRank: MIN_SCORED_TAKES_TO_RANK,
      rank: member?.rank ?? null,
      rankedAmong: ranked.length,
      ...(member ? figuresOf(member.sums) : UNSCORED),
      unscored,
      calibration: calibrationOf(mine),
      total: mine.length,
      hasMore: query.offset + query.limit < mine.length,
      takes: mine.slice(query.offset, query.offset + query.limit).map((t) => ({
        marketAddress: t.marketAddress,
        chainId: t.chainId,
        title: t.title,
        probability: probability(t.probabilityPpm),
        marketProbability: probability(t.marketPpm),
        outcome: t.yes ? ("YES" as const) : ("NO" as const),
        brier: score(t.probabilityPpm, t.yes),
        marketBrier: score(t.marketPpm, t.yes),
        takenAt: instant(t.takenAt),
        resolvedAt: instant(t.resolvedAt),
      })),
    };
  },
});

export const getScoringCohort = defineOperation({
  id: "getScoringCohort",
  method: "GET",
  path: "/reputation/scoring-cohort",
  summary: "The scoring cohort: every analyst's takes on resolved markets, scored, ranked by skill over the market",
  description:
    "The cohort of analysts whose takes were scored in the period (see getScoringRecord): the whole cohort's figures and calibration, and its analysts ranked by skill (the market's mean Brier minus theirs), then by their own mean Brier, from 5 scored takes. See docs/leaderboard.md \"Analysts' scoring\".",
  ...SCORING_READ,
  request: { query: z.strictObject(paging) },
  response: z.object({
    ...common,
    cohort: z.object({ analysts: z.number().int().min(0), ...scoringFigures }).describe("every scored take of the period, ranked or not"),
    calibration,
    total: z.number().int().min(0).describe("ranked analysts"),
    hasMore: z.boolean(),
    analysts: z.array(z.object({ rank: z.number().int().min(1), walletAddress: address, agentId: z.string(), name: z.string(), ...scoringFigures })),
  }),
  mcpTool: "svc_get_scoring_cohort",
  async handler(ctx, { query }) {
    const { bounds, now } = periodOf(ctx, query.period);
    const all = await recentScoredTakes(ctx.db, bounds, now);
    const { total, members, ranked } = cohortOf(all);
    return {
      method: SCORING_METHOD,
      period: periodView(bounds),
      asOf: instant(now),
      minScoredTakesToRank: MIN_SCORED_TAKES_TO_RANK,
      cohort: { analysts: members.size, ...figuresOf(total) },
      calibration: calibrationOf(all),
      total: ranked.length,
      hasMore: query.offset + query.limit < ranked.length,
      analysts: ranked.slice(query.offset, query.offset + query.limit).map((m) => ({
        rank: m.rank as number,
        walletAddress: m.account,
        agentId: m.agentId,
        name: m.name,
        ...figuresOf(m.sums),
      })),
    };
  },
});
