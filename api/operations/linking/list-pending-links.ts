import { z } from "zod";
import { linkedCount, pendingConsents } from "../../domain/identity/links";
import { defineOperation } from "../../registry/types";
import { actorOf, capFields, capOf, consentSchema, consentView, LINKING_READ } from "./common";

/** GET /identity/pending-links: the consents waiting for the root's approval, oldest first. */
export const listPendingLinks = defineOperation({
  id: "listPendingLinkConsents",
  method: "GET",
  path: "/identity/pending-links",
  summary: "Consents waiting for this root's approval, oldest first",
  description: "Root only (403 FORBIDDEN reason NOT_IDENTITY_ROOT for a member; 409 CONFLICT reason NO_IDENTITY before the first link code).",
  ...LINKING_READ,
  errors: ["CONFLICT"],
  request: {},
  response: z.object({ identityId: z.uuid(), consents: z.array(consentSchema), ...capFields }),
  mcpTool: "svc_list_pending_link_consents",
  async handler(ctx, _input, call) {
    const actor = await actorOf(ctx, call.principal);
    const { identity, consents } = await pendingConsents(ctx.db, actor, ctx.clock.now());
    return {
      identityId: identity.identityId,
      consents: consents.map(consentView),
      ...capOf(await linkedCount(ctx.db, identity.identityId)),
    };
  },
});
