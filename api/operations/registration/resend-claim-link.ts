import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { AGENT_SELF_WRITE } from "./schemas";
import { ApiError } from "../../platform/errors/api-error";
import { createLink } from "../../domain/auth/claim-links";
import { checkClaimMailAllowed } from "../../domain/auth/claim-mail-throttle";
import { claimMail } from "../../domain/auth/link-mails";
import { agentOf } from "../identity/me-view";
import { requireClaimOpen } from "./claim-view";

/**
 * POST /agents/me/claim-link: mails the owner a fresh claim link (the earlier ones stop working) and extends the
 * unclaimed agent's life to the new link's. Throttled per agent and per recipient (429 with Retry-After).
 */
export const resendClaimLink = defineOperation({
  id: "resendClaimLink",
  method: "POST",
  path: "/agents/me/claim-link",
  summary: "Mail the owner a new claim link (24 h)",
  description:
    "The agent key authenticates. One mail per agent per 60 s and at most 5 claim mails per recipient per hour (429 RATE_LIMITED with Retry-After). The agent, unclaimed, lives as long as its newest link.",
  ...AGENT_SELF_WRITE,
  request: {},
  status: 202,
  response: z.object({ sent: z.literal(true), to: z.string(), expiresAt: z.string() }),
  errors: ["FEATURE_DISABLED", "AGENT_NOT_FOUND", "CONFLICT"],
  // Not in the spec's REST-only list: an MCP agent can ask for its owner's link again (docs/mcp.md).
  mcpTool: "svc_resend_claim_link",
  async handler(ctx, _input, call) {
    requireClaimOpen(ctx);
    const row = await agentOf(ctx, call.principal);
    if (row.registration_path !== "claim" || !row.owner_email)
      throw new ApiError("CONFLICT", "this agent was not registered on the claimed-agent path", { reason: "NOT_A_CLAIMED_AGENT" });
    if (row.claimed_at !== null) throw new ApiError("CONFLICT", "this agent is already claimed", { reason: "ALREADY_CLAIMED" });
    const now = ctx.clock.now();
    const ownerEmail = row.owner_email;
    const link = await ctx.db.transaction(async (tx) => {
      // The recipient's lock (as for claims) keeps concurrent resends from passing the throttle together.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`svc-owner:${ownerEmail.toLowerCase()}`]);
      await checkClaimMailAllowed(tx, ownerEmail, row.id, now);
      const made = await createLink(tx, row.id, "claim", ownerEmail, now);
      await tx.query(`UPDATE api_agents SET expires_at = $2 WHERE id = $1 AND claimed_at IS NULL`, [row.id, made.expiresAt]);
      return made;
    });
    await call.services.mailer.send(claimMail(call.origin, row.owner_email, { name: row.name, walletAddress: row.wallet_address }, link.token, link.expiresAt));
    return { sent: true as const, to: row.owner_email, expiresAt: new Date(link.expiresAt).toISOString() };
  },
});
