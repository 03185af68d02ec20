import { z } from "zod";
import { defineOperation, Reply } from "../../registry/types";
import { checkTargetUrl } from "../../domain/webhooks/address-guard";
import { deleteSubscription, updateSubscription } from "../../domain/webhooks/store";
import { eventTypesField, MANAGE, subscriptionSchema, subscriptionView, webhookIdParams, OWN_WEBHOOK } from "./common";

/** PATCH /webhooks/{webhookId}: URL, event types, description, enabled (re-enable after 410 or a pause). */
export const updateWebhook = defineOperation({
  id: "updateWebhook",
  method: "PATCH",
  path: "/webhooks/{webhookId}",
  summary: "Change a webhook subscription's URL, event types or description, or disable / re-enable it",
  description: "Disabling cancels the subscription's pending deliveries.",
  ...MANAGE,
  ownedResource: OWN_WEBHOOK,
  rateClass: "write",
  charged: true,
  idempotency: "exempt",
  errors: ["NOT_FOUND"],
  request: {
    params: webhookIdParams,
    body: z
      .strictObject({
        url: z.string().min(1).max(2048).optional(),
        eventTypes: eventTypesField.optional(),
        description: z.string().max(500).optional(),
        enabled: z.boolean().optional(),
      })
      .refine((b) => Object.keys(b).length > 0, "send at least one field"),
  },
  response: subscriptionSchema,
  mcpTool: "svc_update_webhook",
  async handler(ctx, { params, body }, call) {
    const url = body.url === undefined ? undefined : (await checkTargetUrl(body.url, ctx.config.WEBHOOKS_ALLOW_PRIVATE)).toString();
    const now = ctx.clock.now();
    const sub = await updateSubscription(
      ctx.db,
      call.principal.agentId,
      params.webhookId,
      { url, eventTypes: body.eventTypes && [...new Set(body.eventTypes)], description: body.description, enabled: body.enabled },
      now,
    );
    return subscriptionView(sub, now);
  },
});

/** DELETE /webhooks/{webhookId}: the subscription and its delivery log. */
export const deleteWebhook = defineOperation({
  id: "deleteWebhook",
  method: "DELETE",
  path: "/webhooks/{webhookId}",
  summary: "Delete a webhook subscription and its delivery log",
  ...MANAGE,
  ownedResource: OWN_WEBHOOK,
  rateClass: "write",
  charged: true,
  idempotency: "exempt",
  errors: ["NOT_FOUND"],
  request: { params: webhookIdParams },
  response: z.object({ id: z.string(), deleted: z.literal(true) }),
  mcpTool: "svc_delete_webhook",
  async handler(ctx, { params }, call) {
    await deleteSubscription(ctx.db, call.principal.agentId, params.webhookId);
    return new Reply(200, { id: params.webhookId, deleted: true as const });
  },
});
