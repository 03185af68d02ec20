import { z } from "zod";
import { defineOperation, Reply } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { deliveryLog, enqueueDelivery, subscriptionOf } from "../../domain/webhooks/store";
import { MANAGE, webhookIdParams, OWN_WEBHOOK } from "./common";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const cursorOf = (createdAt: number, id: string) => Buffer.from(`${createdAt}:${id}`).toString("base64url");
function parseCursor(c: string | undefined): { createdAt: number; id: string } | null {
  if (!c) return null;
  const m = /^(\d{1,15}):(msg_[0-9a-f]{24})$/.exec(Buffer.from(c, "base64url").toString());
  if (!m) throw new ApiError("INVALID_PAYLOAD", "cursor is not one this operation returned", { field: "cursor" });
  return { createdAt: Number(m[1]), id: m[2] };
}

const attemptSchema = z.object({
  attempt: z.number().int(),
  at: z.string(),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  nextAttemptAt: z.string().nullable(),
});
const deliverySchema = z.object({
  id: z.string().describe("the webhook-id header"),
  eventType: z.string(),
  status: z.enum(["pending", "succeeded", "failed", "cancelled"]),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastResponseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  payload: z.string().describe("the exact signed body"),
  attemptLog: z.array(attemptSchema),
});

/** GET /webhooks/{webhookId}/deliveries: the delivery log, newest first, with every attempt. */
export const listWebhookDeliveries = defineOperation({
  id: "listWebhookDeliveries",
  method: "GET",
  path: "/webhooks/{webhookId}/deliveries",
  summary: "Delivery log of a webhook subscription, newest first, with every attempt",
  ...MANAGE,
  ownedResource: OWN_WEBHOOK,
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  errors: ["NOT_FOUND"],
  request: {
    params: webhookIdParams,
    query: z.strictObject({ limit: z.coerce.number().int().min(1).max(100).default(20), cursor: z.string().max(200).optional() }),
  },
  response: z.object({ deliveries: z.array(deliverySchema), nextCursor: z.string().nullable() }),
  mcpTool: "svc_list_webhook_deliveries",
  async handler(ctx, { params, query }, call) {
    await subscriptionOf(ctx.db, call.principal.agentId, params.webhookId);
    const rows = await deliveryLog(ctx.db, params.webhookId, query.limit, parseCursor(query.cursor));
    const last = rows[rows.length - 1];
    return {
      deliveries: rows.map((d) => ({
        ...d,
        status: d.status as "pending" | "succeeded" | "failed" | "cancelled",
        nextAttemptAt: iso(d.nextAttemptAt),
        createdAt: iso(d.createdAt)!,
        completedAt: iso(d.completedAt),
        attemptLog: d.attemptLog.map((a) => ({ ...a, at: iso(a.at)!, nextAttemptAt: iso(a.nextAttemptAt) })),
      })),
      nextCursor: rows.length === query.limit && last ? cursorOf(last.createdAt, last.id) : null,
    };
  },
});

/** POST /webhooks/{webhookId}/test: queues a `webhook.test` message to the endpoint. */
export const testWebhook = defineOperation({
  id: "testWebhook",
  method: "POST",
  path: "/webhooks/{webhookId}/test",
  summary: "Send a signed webhook.test message to the subscription's URL",
  ...MANAGE,
  ownedResource: OWN_WEBHOOK,
  rateClass: "write",
  charged: true,
  idempotency: "required",
  errors: ["NOT_FOUND", "CONFLICT"],
  request: { params: webhookIdParams },
  status: 202,
  response: z.object({ messageId: z.string(), status: z.literal("pending") }),
  mcpTool: "svc_test_webhook",
  async handler(ctx, { params }, call) {
    const sub = await subscriptionOf(ctx.db, call.principal.agentId, params.webhookId);
    if (sub.status !== "enabled")
      throw new ApiError("CONFLICT", 'the subscription is disabled; re-enable it with PATCH {"enabled":true}', {
        subscriptionStatus: sub.status,
        reason: sub.disabledReason,
      });
    const messageId = await enqueueDelivery(ctx.db, sub.id, "webhook.test", { webhookId: sub.id, message: "test delivery" }, ctx.clock.now());
    call.services.webhooks.wake();
    return new Reply(202, { messageId, status: "pending" as const });
  },
});
