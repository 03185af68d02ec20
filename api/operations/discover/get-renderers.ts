import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { buildRenderers } from "../../domain/protocol/renderers";
import { PUBLIC_READ } from "./common";

/** GET /discover/renderers: which market shapes a client can draw natively (a UI hint). */
export const getRenderers = defineOperation({
  id: "getRenderers",
  method: "GET",
  path: "/discover/renderers",
  summary: "Native renderer catalog (UI hint)",
  ...PUBLIC_READ,
  request: { query: z.strictObject({}) },
  response: z.object({
    renderers: z.array(z.object({ id: z.string(), outcomes: z.number().int(), pricingModels: z.array(z.string()), widgets: z.array(z.string()) })),
  }),
  mcpTool: "svc_get_renderers",
  async handler() {
    return buildRenderers();
  },
});
