import { defineOperation } from "../../registry/types";
import { projectionFreshnessSchema } from "../../domain/onchain/freshness";
import { projectionFreshness } from "../../domain/onchain/reads";

/** GET /health/projection: the indexer's cursor against the chain head (public). */
export const getProjectionHealth = defineOperation({
  id: "getProjectionHealth",
  method: "GET",
  path: "/health/projection",
  summary: "Freshness of the on-chain projection (indexer block vs chain head)",
  category: "system",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: false,
  idempotency: "exempt",
  request: {},
  response: projectionFreshnessSchema,
  mcpTool: "svc_get_projection_health",
  async handler(_ctx, _input, call) {
    return projectionFreshness(call.services.onchain);
  },
});
