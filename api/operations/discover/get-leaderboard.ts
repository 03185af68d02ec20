import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { SORTS } from "../../domain/ranking/boards";
import { PERIODS } from "../../domain/ranking/periods";
import { MARK_METHOD, METHOD_VERSION } from "../../domain/ranking/answers";
import { PUBLIC_READ } from "./common";
import { decimal, iso, periodSchema, traderFigureFields, wei } from "./ranking-schemas";

const query = z.strictObject({
  /** RETURN aliases PNL; RISK_ADJ_PNL (legacy) ranks as PNL; CREATOR_QUALITY and VOTERS answer their own boards. */
  sort: z.enum(SORTS).default("PNL"),
  category: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]{0,39}$/, "must be ALL or a MarketCategory (upper case)")
    .default("ALL"),
  collateral: z
    .string()
    .regex(/^[A-Za-z0-9.]{1,16}$/, "must be a collateral symbol")
    .default("PM"),
  period: z.enum(PERIODS).default("7d"),
  generation: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(200).default(0),
});

const common = {
  period: z.enum(PERIODS),
  updatedAt: iso.nullable(),
  total: z.number().int().describe("rows the board ranks (before paging)"),
  hasMore: z.boolean(),
  measurement: z.object({
    methodVersion: z.literal(METHOD_VERSION),
    markMethod: z.literal(MARK_METHOD),
    unit: z.object({ symbol: z.string(), decimals: z.number().int(), cashValue: z.literal(false) }),
    scope: z.enum(["committed_trading_account", "committed_trading_category"]),
    category: z.string(),
    sort: z.enum(SORTS),
    generation: z.uuid().describe("pass it back as `generation` to page through this same generation"),
    period: periodSchema,
    asOf: iso,
    stale: z.boolean().describe("true when building a newer generation failed and this one stands in"),
    evaluatedAccounts: z.number().int(),
    availableAccounts: z.number().int(),
  }),
};

const traderRow = z.object({ rank: z.number().int().min(1), address: z.string(), ...traderFigureFields });

/** The board response: traders (every trader sort), creators (CREATOR_QUALITY) or voters (VOTERS), told by `board`. */
const boardSchema = z.discriminatedUnion("board", [
  z.object({
    board: z.literal("traders"),
    ...common,
    traders: z.array(traderRow),
    minSettledMarketsToRank: z.number().int(),
    minClosedCallsToRank: z.number().int(),
  }),
  z.object({
    board: z.literal("creators"),
    ...common,
    creators: z.array(
      z.object({
        rank: z.number().int().min(1),
        address: z.string(),
        marketsCreated: z.number().int(),
        marketsEnded: z.number().int(),
        unchallenged: z.number().int(),
        overturned: z.number().int(),
        qualityPercent: decimal.nullable().describe("markets ended unchallenged over markets ended, in percent"),
        volume: decimal,
        volumeWei: wei,
      }),
    ),
    minEndedMarketsToRank: z.number().int(),
  }),
  z.object({
    board: z.literal("voters"),
    ...common,
    voters: z.array(
      z.object({
        rank: z.number().int().min(1),
        address: z.string(),
        ballots: z.number().int(),
        rewardedBallots: z.number().int(),
        staked: decimal,
        rewards: decimal,
        rewardsWei: wei,
      }),
    ),
  }),
]);

/** GET /discover/leaderboard: ranks accounts over a period from the committed journal (docs/leaderboard.md). */
export const getLeaderboard = defineOperation({
  id: "getLeaderboard",
  method: "GET",
  path: "/discover/leaderboard",
  summary: "Trader, creator and voter leaderboards over the committed journal",
  ...PUBLIC_READ,
  errors: ["EXPIRED_TOKEN"],
  request: { query },
  response: boardSchema,
  mcpTool: "svc_get_leaderboard",
  async handler(_ctx, { query: q }, call) {
    return call.services.leaderboard.board(q);
  },
});
