import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { CREATOR_WRITE } from "./common";
import { accept, negotiationView } from "../../domain/creation/flow";
import { negotiationSchema } from "../../domain/creation/schemas";

/**
 * POST /negotiate/{id}/accept (REST-only, as the spec says): accepts the proposed terms. The gates are checked again
 * under the creator's lock; a place under the concurrent limit (and a public cohort slot, if the creator holds none)
 * is reserved until `expiresAt` (deploy by).
 */
export const negotiateAccept = defineOperation({
  id: "negotiateAccept",
  method: "POST",
  path: "/negotiate/{id}/accept",
  summary: "Accept proposed market terms",
  ...CREATOR_WRITE,
  errors: ["NEGOTIATION_NOT_FOUND", "NEGOTIATION_STATE", "NEGOTIATION_EXPIRED", "EXTERNAL_ID_TAKEN", "CREATION_NOT_ALLOWED", "CONCURRENT_MARKET_LIMIT"],
  request: { params: z.strictObject({ id: z.string().min(1).max(64) }), body: z.strictObject({}).optional() },
  response: negotiationSchema,
  mcpTool: null,
  async handler(_ctx, { params }, call) {
    return negotiationView(await accept(call.services.creation, call.principal, params.id, call.unit));
  },
});
