import { z } from "zod";
import { APPROVE_MAX, approveConsents, linkedCount } from "../../domain/identity/links";
import { defineOperation } from "../../registry/types";
import { actorOf, address, capFields, capOf, LINKING_WRITE } from "./common";

/** POST /identity/approve-links: the root approves pending consents, at most 20 per call, each with its own result. */
export const approveLinks = defineOperation({
  id: "approveLinkConsents",
  method: "POST",
  path: "/identity/approve-links",
  summary: `Approve pending link consents (1..${APPROVE_MAX} per call); each gets its own result`,
  description:
    "Root only. Results in request order: approved, not_found (unknown, not this identity's, or no longer pending), expired, cap_reached (49 linked addresses), linked_elsewhere. One that fails changes nothing; the others go on. See docs/identity.md.",
  ...LINKING_WRITE,
  errors: ["CONFLICT"],
  request: {
    body: z.strictObject({
      consentIds: z
        .array(z.uuid())
        .min(1)
        .max(APPROVE_MAX)
        .refine((ids) => new Set(ids).size === ids.length, "consentIds must not repeat"),
    }),
  },
  response: z.object({
    identityId: z.uuid(),
    results: z.array(
      z.object({
        consentId: z.uuid(),
        status: z.enum(["approved", "not_found", "expired", "cap_reached", "linked_elsewhere"]),
        walletAddress: address.nullable(),
        agentId: z.uuid().nullable(),
      }),
    ),
    ...capFields,
  }),
  mcpTool: "svc_approve_link_consents",
  async handler(ctx, { body }, call) {
    const actor = await actorOf(ctx, call.principal);
    return ctx.db.transaction(async (tx) => {
      const { identity, results } = await approveConsents(tx, actor, body.consentIds, ctx.clock.now());
      return { identityId: identity.identityId, results, ...capOf(await linkedCount(tx, identity.identityId)) };
    });
  },
});
