import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { pendingResolution, PENDING_STATES } from "../../domain/lifecycle/pending";
import { lifecycleSchema } from "../../domain/lifecycle/market-lifecycle";
import { PUBLIC_READ } from "./common";

/**
 * GET /discover/markets/pending-resolution: markets past closeTime and not final yet (closed, creator_proposal,
 * challenge, creator_mia, human_voting, council_review), soonest nextActionDeadline first, with filters and a cursor.
 */
export const listPendingResolution = defineOperation({
  id: "listPendingResolution",
  method: "GET",
  path: "/discover/markets/pending-resolution",
  summary: "Markets waiting for resolution, soonest next deadline first",
  description: "Filters: category, marketState. limit 1..100 (default 50); page with nextCursor. See docs/resolution.md.",
  ...PUBLIC_READ,
  request: {
    query: z.strictObject({
      category: z.string().min(1).max(40).optional(),
      marketState: z.enum(PENDING_STATES).optional(),
      cursor: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,256}$/)
        .optional(),
      limit: z.coerce.number().int().min(1).max(100).default(50),
    }),
  },
  response: z.object({
    markets: z.array(lifecycleSchema.extend({ title: z.string(), category: z.string(), effectiveState: z.string() })),
    count: z.number().int(),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
  }),
  mcpTool: "svc_list_pending_resolution",
  async handler(ctx, { query }, call) {
    return pendingResolution(ctx, call.services.venue.exchange.engine, query);
  },
});
