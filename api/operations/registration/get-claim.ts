import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { liveLink } from "../../domain/auth/claim-links";
import { linkToken } from "./schemas";
import { agentClaimSchema, claimView, requireClaimOpen } from "./claim-view";

/** GET /agents/claim?token=: what the owner's claim link would claim. */
export const getAgentClaim = defineOperation({
  id: "getAgentClaim",
  method: "GET",
  path: "/agents/claim",
  summary: "Preview the agent a claim link names",
  category: "registration",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: { query: z.strictObject({ token: linkToken }) },
  response: agentClaimSchema,
  errors: ["FEATURE_DISABLED", "EXPIRED_TOKEN"],
  mcpTool: "svc_get_agent_claim",
  async handler(ctx, { query }) {
    requireClaimOpen(ctx);
    return claimView(ctx.db, await liveLink(ctx.db, query.token, "claim", ctx.clock.now()));
  },
});
