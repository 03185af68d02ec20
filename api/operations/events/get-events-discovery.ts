import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { eventsDiscovery } from "./catalog";

const PUBLIC_CATALOG = {
  category: "events",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: {},
} as const;
export { PUBLIC_CATALOG };

/** GET /events/discovery: the realtime catalog (docs/realtime.md). */
export const getEventsDiscovery = defineOperation({
  id: "getEventsDiscovery",
  method: "GET",
  path: "/events/discovery",
  summary: "Realtime catalog: SSE and WebSocket endpoints, event kinds and shapes, subscription messages, heartbeats, reconnect and gap repair",
  ...PUBLIC_CATALOG,
  response: z.looseObject({
    version: z.string(),
    transports: z.record(z.string(), z.unknown()),
    channels: z.array(z.unknown()),
    eventKinds: z.array(z.looseObject({ type: z.string() })),
    heartbeat: z.looseObject({ intervalMs: z.number().int() }),
    reconnect: z.record(z.string(), z.unknown()),
  }),
  mcpTool: "svc_get_events_discovery",
  async handler(ctx, _input, call) {
    return eventsDiscovery(call.origin, { heartbeatMs: ctx.config.REALTIME_HEARTBEAT_MS, wsAuthTimeoutMs: ctx.config.REALTIME_WS_AUTH_TIMEOUT_MS });
  },
});
