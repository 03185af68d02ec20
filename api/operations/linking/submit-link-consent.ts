import { z } from "zod";
import { submitConsent } from "../../domain/identity/links";
import { defineOperation } from "../../registry/types";
import { actorOf, consentSchema, consentView, LINKING_WRITE } from "./common";

/** POST /identity/link-consent: the calling agent (proved by its key) asks to join the identity of a live code. */
export const submitLinkConsent = defineOperation({
  id: "submitLinkConsent",
  method: "POST",
  path: "/identity/link-consent",
  summary: "Consent to join the identity whose link code you hold; the root approves it",
  description:
    "Proved by the calling key (no wallet signature). The agent needs a bound wallet; it is the address linked. An unknown or expired code is 410 EXPIRED_TOKEN; a member of an identity is 409 CONFLICT (reason ALREADY_LINKED, SELF_LINK or LINKED_ELSEWHERE). A new consent replaces the agent's pending one. See docs/identity.md.",
  ...LINKING_WRITE,
  errors: ["WALLET_REQUIRED", "EXPIRED_TOKEN", "CONFLICT"],
  request: {
    body: z.strictObject({
      code: z.string().min(1).max(32).describe("the root's link code (case and hyphens do not matter)"),
    }),
  },
  status: 201,
  response: consentSchema,
  mcpTool: "svc_submit_link_consent",
  async handler(ctx, { body }, call) {
    const actor = await actorOf(ctx, call.principal);
    const consent = await ctx.db.transaction((tx) => submitConsent(tx, actor, body.code, ctx.clock.now()));
    return consentView(consent);
  },
});
