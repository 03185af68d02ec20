import { z } from "zod";
import { defineOperation } from "../../registry/types";

/** GET /time: the server clock, for signing windows and drift checks. */
export const getServerTime = defineOperation({
  id: "getServerTime",
  method: "GET",
  path: "/time",
  summary: "Server time in Unix epoch milliseconds",
  category: "system",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: {},
  response: z.object({ serverTime: z.number().int().min(0).describe("Unix epoch milliseconds") }),
  mcpTool: "svc_get_server_time",
  async handler(ctx) {
    return { serverTime: ctx.clock.now() };
  },
});
