import type { OwnedResource } from "../../registry/types";
import { z } from "zod";
import { WEBHOOK_EVENT_TYPES, type Subscription } from "../../domain/webhooks/store";

/** Shared fields of the webhook-management operations: any key tier holding webhooks:manage. */
export const MANAGE = { category: "webhooks", permission: "api-key-read", tier: "read-only", scopes: ["webhooks:manage"] } as const;

/** A webhook subscription is its agent's own: another agent's id is an unknown one (404). */
export const OWN_WEBHOOK = { field: "webhookId", kind: "webhook", notFound: "NOT_FOUND" } as const satisfies OwnedResource;
export const webhookIdParams = z.strictObject({ webhookId: z.string().regex(/^wh_[0-9a-f]{24}$/, "must be a webhook id (wh_ + 24 hex digits)") });
export const eventTypesField = z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length);

export const subscriptionSchema = z.object({
  id: z.string(),
  url: z.string(),
  eventTypes: z.array(z.string()),
  description: z.string(),
  status: z.enum(["enabled", "disabled"]),
  disabledReason: z.string().nullable(),
  account: z.string().describe("ledger account whose execution reports are delivered"),
  secrets: z.array(z.object({ createdAt: z.string(), expiresAt: z.string().nullable() })).describe("live signing secrets (values are never shown again)"),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const iso = (ms: number) => new Date(ms).toISOString();

export function subscriptionView(s: Subscription, now: number): z.input<typeof subscriptionSchema> {
  return {
    id: s.id,
    url: s.url,
    eventTypes: s.eventTypes,
    description: s.description,
    status: s.status,
    disabledReason: s.disabledReason,
    account: s.account,
    secrets: s.secrets
      .filter((x) => x.expiresAt === null || x.expiresAt > now)
      .map((x) => ({ createdAt: iso(x.createdAt), expiresAt: x.expiresAt === null ? null : iso(x.expiresAt) })),
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  };
}
