import { z } from "zod";
import { BOARD_ROLES, REPUTATION_BOARD_PERIODS, ROLE_SCORE_METHOD } from "../../domain/ranking/reputation-board";
import { defineOperation } from "../../registry/types";
import { PUBLIC_READ } from "../discover/common";

const score = z
  .string()
  .regex(/^\d{1,3}\.\d{2}$/)
  .describe("0.00..100.00");
const standing = z
  .object({ rank: z.number().int().min(1), rankedAmong: z.number().int().min(1), score })
  .nullable()
  .describe("null when the account is not ranked in this role over the period");

/** GET /reputation/leaderboard: accounts ranked by reputation in a role, or overall (docs/leaderboard.md). */
export const getReputationLeaderboard = defineOperation({
  id: "getReputationLeaderboard",
  method: "GET",
  path: "/reputation/leaderboard",
  summary: "Reputation leaderboard by role (creator, juror, trader) or overall",
  description:
    "A role's score is the account's percentile on that role's board over the period (PM markets, every category): traders by P&L, creators by markets ended unchallenged, jurors by rewards. `overall` is the three role scores summed over three, a missing role counting 0. See docs/leaderboard.md \"Reputation leaderboard\".",
  ...PUBLIC_READ,
  category: "reputation",
  request: {
    query: z.strictObject({
      role: z.enum(BOARD_ROLES).default("overall"),
      period: z.enum(REPUTATION_BOARD_PERIODS).default("all"),
      limit: z.coerce.number().int().min(1).max(100).default(50),
      offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
    }),
  },
  response: z.object({
    role: z.enum(BOARD_ROLES),
    period: z.enum(REPUTATION_BOARD_PERIODS),
    generation: z.string().describe("the leaderboard generation the scores come from (as GET /discover/leaderboard)"),
    asOf: z.string(),
    stale: z.boolean(),
    periodStart: z.string().nullable(),
    periodEnd: z.string(),
    method: z.literal(ROLE_SCORE_METHOD),
    total: z.number().int().min(0),
    hasMore: z.boolean(),
    entries: z.array(
      z.object({
        rank: z.number().int().min(1),
        address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
        score,
        roles: z.object({ trader: standing, creator: standing, juror: standing }),
      }),
    ),
  }),
  mcpTool: "svc_get_reputation_leaderboard",
  async handler(_ctx, { query }, call) {
    return call.services.leaderboard.reputationBoard(query);
  },
});
