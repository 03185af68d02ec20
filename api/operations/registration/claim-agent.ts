import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { agentById, scopesOf, setGrants } from "../../domain/auth/agents";
import { linkOf, liveLink, useLink } from "../../domain/auth/claim-links";
import { CLAIM_UNLOCKS, unionScopes } from "../../domain/auth/scopes";
import { linkToken } from "./schemas";
import { agentClaimSchema, claimView, requireClaimOpen } from "./claim-view";

/** POST /agents/claim: the owner claims the agent; its key gains CLAIM_UNLOCKS and tier execute. */
export const claimAgent = defineOperation({
  id: "claimAgent",
  method: "POST",
  path: "/agents/claim",
  summary: "Claim an agent with the owner's link token (unlocks trading)",
  description: "The link token authenticates. Idempotent (spec): posting the link that claimed the agent again answers the same claim, whatever the Idempotency-Key; an unknown or expired unused link answers 410 EXPIRED_TOKEN.",
  category: "registration",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "write",
  charged: true,
  idempotency: "required",
  request: { body: z.strictObject({ token: linkToken }) },
  response: agentClaimSchema,
  errors: ["FORBIDDEN", "FEATURE_DISABLED", "EXPIRED_TOKEN"],
  mcpTool: "svc_claim_agent",
  async handler(ctx, { body }) {
    requireClaimOpen(ctx);
    const now = ctx.clock.now();
    return ctx.db.transaction(async (tx) => {
      // The spec's POST /agents/claim is idempotent: the link that made the claim answers it again.
      const used = await linkOf(tx, body.token, "claim");
      if (used && used.used_at !== null && (await agentById(tx, used.agent_id))?.claimed_at != null) return claimView(tx, used);
      const link = await liveLink(tx, body.token, "claim", now);
      const row = await agentById(tx, link.agent_id);
      if (row?.registration_path !== "claim") throw new ApiError("FORBIDDEN", "this link does not name a claimable agent");
      if (!(await useLink(tx, link.token_hash, now))) throw new ApiError("EXPIRED_TOKEN", "this claim link was already used", { reason: "USED" });
      if (row.claimed_at === null) {
        await setGrants(tx, row.id, { tier: "execute", scopes: unionScopes(scopesOf(row), CLAIM_UNLOCKS) });
        await tx.query(`UPDATE api_agents SET claimed_at = $2 WHERE id = $1`, [row.id, now]);
      }
      return claimView(tx, link);
    });
  },
});
