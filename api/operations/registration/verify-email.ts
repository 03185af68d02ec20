import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { agentById, scopesOf, setGrants, setVerifiedEmail } from "../../domain/auth/agents";
import { liveLink, useLink } from "../../domain/auth/claim-links";
import { AGENT_TIERS, GRANTS, maxTier, SCOPES, unionScopes } from "../../domain/auth/scopes";
import { linkToken } from "./schemas";

/** POST /agents/verify-email: follows a verification link; wakes a dormant email key or upgrades a trial agent. */
export const verifyEmail = defineOperation({
  id: "verifyEmail",
  method: "POST",
  path: "/agents/verify-email",
  summary: "Verify an agent's email with the mailed token",
  description: "The token authenticates. An email-path key wakes up; an anonymous trial agent becomes permanent with the email grants.",
  category: "registration",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "write",
  charged: true,
  idempotency: "required",
  request: { body: z.strictObject({ token: linkToken }) },
  response: z.object({ agentId: z.uuid(), email: z.string(), emailVerified: z.literal(true), tier: z.enum(AGENT_TIERS), scopes: z.array(z.enum(SCOPES)) }),
  errors: ["EXPIRED_TOKEN", "EMAIL_ALREADY_REGISTERED"],
  mcpTool: null,
  async handler(ctx, { body }) {
    const now = ctx.clock.now();
    return ctx.db.transaction(async (tx) => {
      const link = await liveLink(tx, body.token, "verify-email", now);
      const row = await agentById(tx, link.agent_id);
      if (!row) throw new ApiError("EXPIRED_TOKEN", "the agent this link names no longer exists", { reason: "UNKNOWN" });
      if (!(await useLink(tx, link.token_hash, now))) throw new ApiError("EXPIRED_TOKEN", "this link was already used", { reason: "USED" });
      await setVerifiedEmail(tx, row.id, link.email);
      const tier = maxTier(row.tier, "propose");
      const scopes = unionScopes(scopesOf(row), GRANTS.email);
      await setGrants(tx, row.id, { tier, scopes, clearExpiry: true });
      return { agentId: row.id, email: link.email, emailVerified: true as const, tier, scopes };
    });
  },
});
