import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { CREATOR_WRITE } from "./common";
import { negotiationView, reject } from "../../domain/creation/flow";
import { negotiationSchema } from "../../domain/creation/schemas";

/** POST /negotiate/{id}/reject (REST-only): declines proposed terms; nothing was reserved or locked. */
export const negotiateReject = defineOperation({
  id: "negotiateReject",
  method: "POST",
  path: "/negotiate/{id}/reject",
  summary: "Reject proposed market terms",
  ...CREATOR_WRITE,
  errors: ["NEGOTIATION_NOT_FOUND", "NEGOTIATION_STATE"],
  request: { params: z.strictObject({ id: z.string().min(1).max(64) }), body: z.strictObject({}).optional() },
  response: negotiationSchema,
  mcpTool: null,
  async handler(_ctx, { params }, call) {
    return negotiationView(await reject(call.services.creation, call.principal, params.id, call.unit));
  },
});
