import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { rotateSecret } from "../../domain/webhooks/store";
import { MANAGE, subscriptionSchema, subscriptionView, webhookIdParams, OWN_WEBHOOK } from "./common";

/** POST /webhooks/{webhookId}/rotate-secret: a new secret; the old ones keep signing for the grace period. */
export const rotateWebhookSecret = defineOperation({
  id: "rotateWebhookSecret",
  method: "POST",
  path: "/webhooks/{webhookId}/rotate-secret",
  summary: "Rotate a webhook's signing secret; earlier secrets keep signing for graceSeconds",
  description:
    "During the grace period every delivery carries one signature per live secret, so receivers can switch at leisure. graceSeconds 0 retires the old secrets at once.",
  ...MANAGE,
  ownedResource: OWN_WEBHOOK,
  rateClass: "write",
  charged: true,
  idempotency: "required",
  errors: ["NOT_FOUND"],
  request: {
    params: webhookIdParams,
    body: z.strictObject({
      graceSeconds: z
        .number()
        .int()
        .min(0)
        .max(7 * 86_400)
        .default(86_400),
    }),
  },
  response: subscriptionSchema.extend({ secret: z.string() }),
  secretFields: ["secret"],
  mcpTool: "svc_rotate_webhook_secret",
  async handler(ctx, { params, body }, call) {
    const now = ctx.clock.now();
    const { sub, secret } = await rotateSecret(ctx.db, call.principal.agentId, params.webhookId, body.graceSeconds * 1000, now);
    return { ...subscriptionView(sub, now), secret };
  },
});
