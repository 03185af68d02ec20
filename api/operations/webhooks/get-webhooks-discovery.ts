import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { webhooksDiscovery } from "../events/catalog";
import { PUBLIC_CATALOG } from "../events/get-events-discovery";

/** GET /webhooks/discovery: event types, headers, verification, retry schedule and the management operations. */
export const getWebhooksDiscovery = defineOperation({
  id: "getWebhooksDiscovery",
  method: "GET",
  path: "/webhooks/discovery",
  summary: "Webhook catalog: event types, Standard Webhooks headers and verification, retry schedule, management operations",
  ...PUBLIC_CATALOG,
  category: "webhooks",
  response: z.looseObject({
    version: z.string(),
    eventTypes: z.array(z.looseObject({ type: z.string() })),
    headers: z.record(z.string(), z.string()),
    retries: z.record(z.string(), z.unknown()),
  }),
  mcpTool: "svc_get_webhooks_discovery",
  async handler(_ctx, _input, call) {
    return webhooksDiscovery(call.origin);
  },
});
