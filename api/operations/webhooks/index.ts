/** Webhook catalog and subscription management (docs/webhooks.md). */
import type { AnyOperation } from "../../registry/types";
import { getWebhooksDiscovery } from "./get-webhooks-discovery";
import { createWebhook } from "./create-webhook";
import { getWebhook, listWebhooks } from "./list-webhooks";
import { deleteWebhook, updateWebhook } from "./update-webhook";
import { rotateWebhookSecret } from "./rotate-webhook-secret";
import { listWebhookDeliveries, testWebhook } from "./webhook-deliveries";

export const WEBHOOK_OPERATIONS: AnyOperation[] = [
  getWebhooksDiscovery,
  createWebhook,
  listWebhooks,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  listWebhookDeliveries,
  testWebhook,
];
