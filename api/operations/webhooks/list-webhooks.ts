import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { subscriptionOf, subscriptionsOf } from "../../domain/webhooks/store";
import { MANAGE, subscriptionSchema, subscriptionView, webhookIdParams, OWN_WEBHOOK } from "./common";

/** GET /webhooks: the agent's subscriptions. */
export const listWebhooks = defineOperation({
  id: "listWebhooks",
  method: "GET",
  path: "/webhooks",
  summary: "List the agent's webhook subscriptions",
  ...MANAGE,
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: {},
  response: z.object({ webhooks: z.array(subscriptionSchema) }),
  mcpTool: "svc_list_webhooks",
  async handler(ctx, _input, call) {
    const now = ctx.clock.now();
    return { webhooks: (await subscriptionsOf(ctx.db, call.principal.agentId)).map((s) => subscriptionView(s, now)) };
  },
});

/** GET /webhooks/{webhookId} */
export const getWebhook = defineOperation({
  id: "getWebhook",
  method: "GET",
  path: "/webhooks/{webhookId}",
  summary: "One webhook subscription",
  ...MANAGE,
  ownedResource: OWN_WEBHOOK,
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  errors: ["NOT_FOUND"],
  request: { params: webhookIdParams },
  response: subscriptionSchema,
  mcpTool: "svc_get_webhook",
  async handler(ctx, { params }, call) {
    return subscriptionView(await subscriptionOf(ctx.db, call.principal.agentId, params.webhookId), ctx.clock.now());
  },
});
