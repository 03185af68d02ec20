import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { MARK_METHOD, METHOD_VERSION } from "../../domain/ranking/answers";
import { PERIODS } from "../../domain/ranking/periods";
import { addressParams, PUBLIC_READ } from "./common";
import { decimal, iso, periodSchema, traderFigureFields } from "./ranking-schemas";

const periodFigures = z.object({
  period: periodSchema,
  rank: z.number().int().min(1).nullable().describe("P&L rank on the default board (PM, all categories); null: not on it"),
  rankedAmong: z.number().int(),
  ...traderFigureFields,
});

/**
 * GET /discover/traders/{address}: one account's trading profile from the same generations as the leaderboard
 * (docs/leaderboard.md "Trading profile"). The spec names a "trading profile by address" and leaves its path unshown.
 */
export const getTradingProfile = defineOperation({
  id: "getTradingProfile",
  method: "GET",
  path: "/discover/traders/{address}",
  summary: "Trading profile of an account: figures and rank per period, and its markets",
  ...PUBLIC_READ,
  errors: ["EXPIRED_TOKEN"],
  request: { params: addressParams, query: z.strictObject({ generation: z.uuid().optional() }) },
  response: z.object({
    address: z.string(),
    traded: z.boolean().describe("whether the journal holds any trading of this account"),
    measurement: z.object({
      methodVersion: z.literal(METHOD_VERSION),
      markMethod: z.literal(MARK_METHOD),
      unit: z.object({ symbol: z.string(), decimals: z.number().int(), cashValue: z.literal(false) }),
      generation: z.uuid(),
      asOf: iso,
      stale: z.boolean(),
    }),
    periods: z.object(Object.fromEntries(PERIODS.map((k) => [k, periodFigures])) as Record<(typeof PERIODS)[number], typeof periodFigures>),
    markets: z
      .array(
        z.object({
          market: z.string(),
          category: z.string(),
          pnl: decimal.describe("all-time P&L in this market at the displayed prices"),
          volume: decimal,
          shares: z.array(z.string()).describe("shares held per outcome, base units"),
          holding: z.boolean(),
          ended: z.enum(["resolved", "void"]).nullable(),
          settled: z.boolean(),
          won: z.boolean(),
          closedCalls: z.number().int(),
        }),
      )
      .describe("the account's markets, the most traded first (at most 20)"),
  }),
  mcpTool: "svc_get_trading_profile",
  async handler(_ctx, { params, query }, call) {
    return call.services.leaderboard.profile(params.address as `0x${string}`, query.generation);
  },
});
