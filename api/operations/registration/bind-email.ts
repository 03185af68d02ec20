import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { AGENT_SELF_WRITE, emailAddress } from "./schemas";
import { ApiError } from "../../platform/errors/api-error";
import { agentByEmail } from "../../domain/auth/agents";
import { createLink } from "../../domain/auth/claim-links";
import { verifyEmailMail } from "../../domain/auth/link-mails";
import { agentOf } from "../identity/me-view";

/** POST /agents/me/bind-email: mails a verification link; the email is bound when the link is used. */
export const bindEmail = defineOperation({
  id: "bindEmail",
  method: "POST",
  path: "/agents/me/bind-email",
  summary: "Bind an email to the agent (verification link mailed)",
  description: "The email is bound, and the email grants added, only when POST /agents/verify-email receives the mailed token.",
  ...AGENT_SELF_WRITE,
  request: { body: z.strictObject({ email: emailAddress }) },
  status: 202,
  response: z.object({ sent: z.literal(true), to: z.string(), expiresAt: z.string() }),
  errors: ["AGENT_NOT_FOUND", "CONFLICT", "EMAIL_ALREADY_REGISTERED"],
  mcpTool: null,
  async handler(ctx, { body }, call) {
    const row = await agentOf(ctx, call.principal);
    const email = body.email.toLowerCase();
    if (row.email_verified && row.email === email) throw new ApiError("CONFLICT", "this email is already bound and verified", { reason: "ALREADY_VERIFIED" });
    if (row.email_verified && row.email) throw new ApiError("CONFLICT", "this agent already has a verified email", { reason: "EMAIL_ALREADY_BOUND" });
    const holder = await agentByEmail(ctx.db, email);
    if (holder && holder.id !== row.id) throw new ApiError("EMAIL_ALREADY_REGISTERED", "another agent already uses this email");
    const link = await createLink(ctx.db, row.id, "verify-email", email, ctx.clock.now());
    await call.services.mailer.send(verifyEmailMail(call.origin, email, row.name, link.token, link.expiresAt));
    return { sent: true as const, to: email, expiresAt: new Date(link.expiresAt).toISOString() };
  },
});
