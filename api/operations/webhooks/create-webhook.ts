import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { checkTargetUrl } from "../../domain/webhooks/address-guard";
import { createSubscription } from "../../domain/webhooks/store";
import { ledgerAccountFor } from "../../domain/auth/ledger-account";
import { eventTypesField, MANAGE, subscriptionSchema, subscriptionView } from "./common";

/** POST /webhooks: a subscription; its signing secret is in this answer only. */
export const createWebhook = defineOperation({
  id: "createWebhook",
  method: "POST",
  path: "/webhooks",
  summary: "Create a webhook subscription (the whsec_ signing secret is shown once)",
  description: "The URL must be http(s) and resolve to public addresses. Deliveries are signed per Standard Webhooks; see GET /webhooks/discovery.",
  ...MANAGE,
  rateClass: "write",
  charged: true,
  idempotency: "required",
  errors: ["CONFLICT"],
  request: {
    body: z.strictObject({
      url: z.string().min(1).max(2048),
      eventTypes: eventTypesField.default(["execution:report"]),
      description: z.string().max(500).default(""),
    }),
  },
  status: 201,
  response: subscriptionSchema.extend({ secret: z.string().describe("whsec_...: store it now, it is not shown again") }),
  secretFields: ["secret"],
  mcpTool: "svc_create_webhook",
  async handler(ctx, { body }, call) {
    const url = await checkTargetUrl(body.url, ctx.config.WEBHOOKS_ALLOW_PRIVATE);
    const p = call.principal;
    const now = ctx.clock.now();
    const { sub, secret } = await createSubscription(
      ctx.db,
      {
        agentId: p.agentId,
        account: await ledgerAccountFor(ctx, p),
        url: url.toString(),
        eventTypes: [...new Set(body.eventTypes)],
        description: body.description,
      },
      now,
    );
    return { ...subscriptionView(sub, now), secret };
  },
});
