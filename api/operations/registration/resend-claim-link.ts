import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { createLink } from "../../domain/auth/claim-links";
import { claimMail } from "../../domain/auth/link-mails";
import { agentOf } from "../../domain/auth/me-view";
import { requireClaimOpen } from "./claim-view";

/** POST /agents/me/claim-link: mails the owner a fresh claim link (the earlier ones stop working). */
export const resendClaimLink = defineOperation({
  id: "resendClaimLink",
  method: "POST",
  path: "/agents/me/claim-link",
  summary: "Mail the owner a new claim link (24 h)",
  category: "registration",
  permission: "api-key-read",
  tier: "read-only",
  scopes: [],
  rateClass: "write",
  charged: true,
  idempotency: "required",
  request: {},
  status: 202,
  response: z.object({ sent: z.literal(true), to: z.string(), expiresAt: z.string() }),
  errors: ["FEATURE_DISABLED", "AGENT_NOT_FOUND", "CONFLICT"],
  mcpTool: null,
  async handler(ctx, _input, call) {
    requireClaimOpen(ctx);
    const row = await agentOf(ctx, call.principal);
    if (row.registration_path !== "claim" || !row.owner_email) throw new ApiError("CONFLICT", "this agent was not registered on the claimed-agent path", { reason: "NOT_A_CLAIMED_AGENT" });
    if (row.claimed_at !== null) throw new ApiError("CONFLICT", "this agent is already claimed", { reason: "ALREADY_CLAIMED" });
    const link = await createLink(ctx.db, row.id, "claim", row.owner_email, ctx.clock.now());
    await call.services.mailer.send(claimMail(call.origin, row.owner_email, { name: row.name, walletAddress: row.wallet_address }, link.token, link.expiresAt));
    return { sent: true as const, to: row.owner_email, expiresAt: new Date(link.expiresAt).toISOString() };
  },
});
