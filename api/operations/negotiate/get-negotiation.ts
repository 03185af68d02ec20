import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { negotiationView, requireNegotiation } from "../../domain/creation/flow";
import { negotiationSchema } from "../../domain/creation/schemas";

/** GET /negotiate/{id}: one of the agent's negotiations (status, terms, market once deployed). */
export const getNegotiation = defineOperation({
  id: "getNegotiation",
  method: "GET",
  path: "/negotiate/{id}",
  summary: "One of your market negotiations",
  category: "markets",
  permission: "api-key-read",
  tier: "propose",
  scopes: ["markets:propose"],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  errors: ["NEGOTIATION_NOT_FOUND"],
  request: { params: z.strictObject({ id: z.string().min(1).max(64) }) },
  response: negotiationSchema,
  mcpTool: "svc_get_negotiation",
  async handler(_ctx, { params }, call) {
    return negotiationView(await requireNegotiation(call.services.creation, call.principal, params.id));
  },
});
