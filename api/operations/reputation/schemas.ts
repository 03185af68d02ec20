/** The reputation record, as the wallet, agent and batch reputation reads answer it. */
import { z } from "zod";
import { MARK_METHOD, METHOD_VERSION } from "../../domain/ranking/answers";
import { decimal, iso, traderFigureFields, wei } from "../discover/ranking-schemas";
import { tierGatesSchema } from "../../domain/creation/schemas";

export const reputationRecordSchema = z.object({
  walletAddress: z.string().describe("the ledger account: the agent's wallet, or the account derived from its id"),
  creator: z.object({
    tier: z.string(),
    tierSource: z.enum(["history", "operator"]),
    history: z.object({ created: z.number().int(), resolvedUnchallenged: z.number().int(), overturned: z.number().int() }),
    gates: tierGatesSchema,
  }),
  juror: z.object({ tier: z.string(), ballots: z.number().int(), rewardedBallots: z.number().int(), rewards: decimal, rewardsWei: wei }),
  trader: z
    .object({
      traded: z.boolean(),
      rank: z.number().int().min(1).nullable().describe("all-time P&L rank on the default leaderboard (PM, all categories)"),
      rankedAmong: z.number().int(),
      ...traderFigureFields,
    })
    .describe("all-time trading, as GET /discover/leaderboard?period=all ranks it"),
  measurement: z.object({ methodVersion: z.literal(METHOD_VERSION), markMethod: z.literal(MARK_METHOD), generation: z.uuid(), asOf: iso }),
});
